#!/bin/sh
# ecg attribute: profiler traces read against the records.
#
# - tests/traces/gpu/amp_resnet.json.gz, a GPU-shaped trace written by hand
#   (tests/traces/gpu/build.py) for tests/schedule_fixtures/amp_accum_resnet:
#   every entry's calls and device time forward/backward, the device time no
#   entry owns and the idle gaps with their causes are exactly what the trace
#   says (tests/traces/compare.py against amp_resnet.expected.json), plain and
#   gzipped, and again after the code moved (frames matched by symbol);
# - tests/traces/cpu/*.json.gz, traces of fixture jobs run under PyTorch's
#   profiler on the CPU (tests/oracle/trace.py): the calls of every module
#   are what ran (the truth recorded with the trace); decorated forwards
#   are matched by their frames' first line (co_firstlineno);
# - GPU traces without python frames -- generated ones shaped like Kineto's
#   (tests/traces/gpu/kineto_like.py), and the real ones of ../shared/traces
#   when present: read, nothing placed without python frames, and said so;
# - bad input: another job's records, a truncated trace (its first events
#   are read, with a warning), a damaged gzip trace (CRC, ISIZE, bytes after
#   the last member: an error, no report), not JSON, no trace.
. "$top_srcdir/tests/lib.sh"

TR="$top_srcdir/tests/traces"
py=/usr/bin/python3
[ -x "$py" ] || py=python3

GPU="$T/amp_resnet.json"
gzip -dc "$TR/gpu/amp_resnet.json.gz" >"$GPU"

R="$T/amp"
mkrepo "$R"
cp -r "$top_srcdir/tests/schedule_fixtures/amp_accum_resnet/." "$R/"
rm -f "$R/expected.json"
chmod -R u+w "$R"
commit "$R" "the amp resnet job"
run_ecg extract --repo "$R" --entry train.py -q
is "$rc" 0 "extract the amp resnet job"

run_ecg attribute --records "$R/records" --json "$GPU"
is "$rc" 0 "attribute the hand-written GPU trace: exit 0 (no call disagrees)"
cp "$T/out" "$T/gpu.json"
$py "$TR/compare.py" "$T/gpu.json" "$TR/gpu/amp_resnet.expected.json" "$R/records/computation_graph.json" >"$T/cmp"
ok $? "  calls, device time fwd/bwd per entry, unattributed time and gaps are the trace's"
cat "$T/cmp"
$py - "$T/gpu.json" >"$T/facts" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
e = {x["id"]: x for x in r["entries"]}
print(r["steps"], r["frames"]["matched"], r["frames"]["matched_by_symbol"])
print(e["layers.0:2"]["total_repeat"], e["layers.0:2"]["expected_calls"], e["layers.0:2"]["calls"])
print(e["layers.0:2.conv1#1"]["calls"], e["head#1"]["backward"]["device_us"])
w = r["unattributed"]["where"]
print(w[1]["where"])
print(w[0]["where"], w[0]["phase"], w[0]["anchor"], w[0]["host_us"], w[1]["phase"])
EOF
is "$(sed -n 1p "$T/facts")" "2 18 0" "  2 steps, 18 frames matched by their def lines"
is "$(sed -n 2p "$T/facts")" "2 4 4" "  the 2-block unit: total_repeat 2, 4 calls expected over 2 steps, 4 measured"
is "$(sed -n 3p "$T/facts")" "4 16" "  an op inside it: 4 calls; backward time goes to the forward's entry"
is "$(sed -n 4p "$T/facts")" "train.py:main (def line 56)" "  unattributed time is named by its frame"
is "$(sed -n 5p "$T/facts")" "optimizer phase at train.py:main:100 optimizer train.py:main:100 807 None" \
	"  time no entry owns under Optimizer.step# or GradScaler's step (found_inf.item(): 799 + 8 us) goes to the schedule's optimizer phase"

run_ecg attribute --records "$R/records" "$GPU"
is "$rc" 0 "the table: exit 0"
grep -q '^    layers\.0:2  *2  *4  *1\.50  *0\.288 ' "$T/out"
ok $? "  a repeated unit is one row: repeat, calls, device time fwd and bwd"
grep -q '^entry (ms, whole trace)' "$T/out" && grep -q '^  stem  .* 0\.0800  *0\.0160 ' "$T/out"
ok $? "  times in ms with three significant digits (1504 us: 1.50, 80 us: 0.0800)"
grep -q '^not attributed: host .* device 0\.168 ms of 5\.52 (3\.0%)$' "$T/out"
ok $? "  the share that could not be attributed is stated"
grep -q '^ *0\.807 ms host  *0\.0270 ms device  optimizer phase at train\.py:main:100$' "$T/out" &&
	grep -q '^ *0\.156 ms host  *0\.137 ms device  train\.py:main (def line 56)$' "$T/out"
ok $? "  unattributed time in the optimizer step is the optimizer phase's, the rest stays on its frame"
grep -q '^idle gaps >= 20 us on the device streams: 4, 0\.592 ms ' "$T/out" &&
	grep -q '^  stream 7        1 x    0\.458 ms =    0\.458 ms  data$' "$T/out"
ok $? "  the gaps in ms too"
is "$(grep -c '^warning' "$T/out")" 0 "  no warning for this trace"
grep -q '^device streams (window 5\.75 ms):$' "$T/out" &&
	grep -q '^  stream 7  *compute  *busy  *4\.75 ms  82\.6%   idle gaps  *0\.592 ms$' "$T/out"
ok $? "  each device stream: compute or communication, busy time and utilisation of the window, idle gaps"
grep -q '^  ProfilerStep#0  *3\.39 ms  *2\.80 ms  *0\.592 ms$' "$T/out" &&
	grep -q '^  ProfilerStep#1  *2\.36 ms  *1\.95 ms  *0 ms$' "$T/out"
ok $? "  per step: its time, the device busy in it, the idle gaps that begin in it"
tr '\n' ' ' <"$T/out" | grep -q 'idle gaps >= 20 us .*: 4, 0\.592 ms (compute streams 0\.592 ms, *communication streams 0 ms)'
ok $? "  the idle gaps split into compute and communication streams"
$py - "$T/gpu.json" >"$T/facts" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
print(r["window_us"], [(s["stream"], s["kind"], s["events"], s["busy_us"], s["utilisation"], s["idle_gaps_us"])
                       for s in r["streams"]], r["gaps"]["compute_us"], r["gaps"]["communication_us"])
EOF
$py -c '
import json, sys
print([(s["name"], s["dur_us"], s["device_busy_us"], s["idle_gaps_us"]) for s in json.load(open(sys.argv[1]))["per_step"]])
' "$T/gpu.json" >>"$T/facts"
is "$(sed -n 2p "$T/facts")" "[('ProfilerStep#0', 3393, 2802, 592), ('ProfilerStep#1', 2356, 1945, 0)]" \
	"  --json: per step (the busy time of the steps adds up to the stream's, 4747 us)"
sed -i 2d "$T/facts"
is "$(cat "$T/facts")" "5750 [(7, 'compute', 345, 4747, 0.826, 592)] 592 0" \
	"  --json: the window, each stream's use (busy 4747 of 5750 us: the union of its device events in the steps)"
grep -A2 'sync  *aten::item$' "$T/out" | tr '\n' '|' |
	grep -q '|    in train\.py:main (def line 56)|    -> schedule train\.py:main:100 train\.py:main:109 '
ok $? "  a gap is printed with its cause, its frame and the schedule entries it can be"
sed -n '/^idle gaps/,$p' "$T/out" | grep '^  stream' | sed -n 1p | grep -q ' data$'
ok $? "  gaps are ranked by total time: the DataLoader wait first"

run_ecg attribute --records "$R/records" --json "$TR/gpu/amp_resnet.json.gz"
sed 's|"trace": "[^"]*"|"trace": ""|' "$T/out" >"$T/gz.json"
sed 's|"trace": "[^"]*"|"trace": ""|' "$T/gpu.json" >"$T/plain.json"
cmp -s "$T/gz.json" "$T/plain.json"
ok $? "a gzipped trace gives the same report"

# the code moved: three lines above everything in model.py
{ printf '# moved\n# moved\n# moved\n'; cat "$R/model.py"; } >"$T/m" && mv "$T/m" "$R/model.py"
commit "$R" "move model.py's code down"
run_ecg extract --repo "$R" --entry train.py -q --out "$T/moved"
run_ecg attribute --records "$T/moved" --json "$GPU"
is "$rc" 0 "records of a commit where the code moved: exit 0"
$py "$TR/compare.py" "$T/out" "$TR/gpu/amp_resnet.expected.json" "$T/moved/computation_graph.json" >"$T/cmp"
ok $? "  the same attribution, frames matched by symbol"
cat "$T/cmp"
grep -q '"matched_by_symbol": 18' "$T/out"
ok $? "  18 frames matched by symbol"
grep -q 'matched by symbol, not by line' "$T/out"
ok $? "  and a warning says the lines moved"
run_ecg attribute --records "$T/moved" "$GPU"
head -1 "$T/out" | grep -q '^warning: 18 frames matched by symbol, not by line'
ok $? "  the table: that warning comes first, before the times it qualifies"

# another job's records
O="$T/other"
mkrepo "$O"
cp -r "$top_srcdir/tests/fixtures/resnet_make_layer/." "$O/"
chmod -R u+w "$O"
rm -f "$O/truth.json" "$O/fixture.json"
commit "$O" "another job"
run_ecg extract --repo "$O" --entry train.py -q
run_ecg attribute --records "$O/records" "$GPU"
is "$rc" 1 "another job's records: exit 1"
grep -q "no repository frame of the trace matches an anchor" "$T/out"
ok $? "  saying the trace is from another commit or job"

# the tables fit the width (--width N; 80 in a pipe): no line is longer,
# and every anchor the report names (frames, schedule entries, phases)
# keeps its line number
fits() {  # records, what
	run_ecg attribute --records "$1" --json "$GPU"
	cp "$T/out" "$T/fit.json"
	for w in 60 80 120 200 ''; do
		run_ecg attribute --records "$1" ${w:+--width $w} "$GPU"
		$py - "$T/out" "$T/fit.json" "${w:-80}" <<'EOF' >"$T/fit"
import json, re, sys
text = open(sys.argv[1]).read()
r = json.load(open(sys.argv[2]))
w = int(sys.argv[3])
long = [l for l in text.splitlines() if len(l) > w]
want = set()
for g in r["gaps"]["groups"]:
    want.update(g["schedule"])
    if g["where"]:
        want.add(g["where"])
for u in r["unattributed"]["where"][:10]:
    want.add(u["where"])
lost = sorted(a for a in want if a not in text)
print("long %d lost %s" % (len(long), lost))
EOF
		is "$(cat "$T/fit")" "long 0 lost []" "  $2, width ${w:-80 (a pipe)}: no line wider, every anchor whole"
	done
}
fits "$R/records" "attribute"
fits "$T/moved" "attribute with a warning"
fits "$O/records" "attribute of another job's records"
run_ecg attribute --records "$R/records" --width 60 "$GPU"
grep -q '^  stem  *1  *2  *0\.0800  *0\.0160  *1\.7%$' "$T/out"
ok $? "  at 60 columns the host times are left to --json, numbers are never cut"
run_ecg attribute --records "$R/records" --width 39 "$GPU"
is "$rc" 2 "  --width below 40: exit 2"

# bad traces
head -c 150000 "$GPU" >"$T/cut.json"
run_ecg attribute --records "$R/records" --json "$T/cut.json"
grep -q "cut.json: truncated at byte" "$T/err"
ok $? "a truncated trace: the message names the file and the byte"
grep -q '"entries"' "$T/out"
ok $? "  and the events before the cut are reported"
head -c 8000 "$TR/gpu/amp_resnet.json.gz" >"$T/cut.json.gz"
run_ecg attribute --records "$R/records" --json "$T/cut.json.gz"
grep -q "cut.json.gz: truncated" "$T/err" && grep -q '"entries"' "$T/out"
ok $? "a truncated gzip trace: the same"
# a damaged gzip trace is an error, with no report from its events (issue
# 20 B8): the trailer's CRC-32 or ISIZE wrong, bytes after the last member
gzip -c "$GPU" >"$T/g.json.gz"
gsz=$(wc -c <"$T/g.json.gz")
flip() {  # flip SRC DST OFFSET: DST is SRC with the byte at OFFSET inverted
	"$TEST_PYTHON" -I -S -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[int(sys.argv[3])] ^= 0xff
open(sys.argv[2], "wb").write(b)' "$1" "$2" "$3"
}
flip "$T/g.json.gz" "$T/crc.json.gz" $((gsz - 8))
run_ecg attribute --records "$R/records" --json "$T/crc.json.gz"
is "$rc" 3 "a gzip trace whose CRC-32 does not match: exit 3"
grep -q "crc.json.gz: bad gzip data: CRC mismatch at byte" "$T/err"
ok $? "  the message names the file, the fault and the byte"
is "$(wc -c <"$T/out" | tr -d ' ')" 0 "  and there is no report"
flip "$T/g.json.gz" "$T/isize.json.gz" $((gsz - 1))
run_ecg attribute --records "$R/records" --json "$T/isize.json.gz"
is "$rc" 3 "a gzip trace whose ISIZE does not match: exit 3"
grep -q "isize.json.gz: bad gzip data: length mismatch" "$T/err"
ok $? "  saying so"
{ cat "$T/g.json.gz"; printf 'garbage'; } >"$T/junk.json.gz"
run_ecg attribute --records "$R/records" --json "$T/junk.json.gz"
is "$rc" 3 "bytes after the last gzip member: exit 3"
grep -q "junk.json.gz: bad gzip data: data after member 1 is not gzip" "$T/err"
ok $? "  saying so"
is "$(wc -c <"$T/out" | tr -d ' ')" 0 "  and there is no report"
# members back to back are gzip too (cat a.gz b.gz)
head -c 100000 "$GPU" | gzip -c >"$T/multi.json.gz"
tail -c +100001 "$GPU" | gzip -9 -c >>"$T/multi.json.gz"
run_ecg attribute --records "$R/records" --json "$T/multi.json.gz"
is "$rc" 0 "a trace in two gzip members, cut inside an event: exit 0"
sed 's|"trace": "[^"]*"|"trace": ""|' "$T/out" >"$T/multi.json"
cmp -s "$T/multi.json" "$T/plain.json"
ok $? "  the report is the plain trace's"
printf 'not a trace\n' >"$T/bad.json"
run_ecg attribute --records "$R/records" "$T/bad.json"
is "$rc" 3 "not JSON: exit 3"
grep -q "bad.json" "$T/err"
ok $? "  naming the file"
run_ecg attribute --records "$R/records" "$T/nowhere.json"
is "$rc" 3 "no such trace: exit 3"
run_ecg attribute --records "$T/nowhere" "$GPU"
is "$rc" 3 "no records: exit 3"
run_ecg attribute --records "$R/records"
is "$rc" 2 "no trace given: exit 2"
run_ecg attribute --min-gap x "$GPU"
is "$rc" 2 "--min-gap x: exit 2"

# CPU traces of fixture jobs run under PyTorch's profiler: every module's
# calls are the calls PyTorch made (the truth recorded with each trace)
for f in gpt_dataclass resnet_make_layer kv_cache_generate decorated_forward; do
	F="$T/cpu_$f"
	mkrepo "$F"
	cp -r "$top_srcdir/tests/fixtures/$f/." "$F/"
	chmod -R u+w "$F"
	entry=$($py -c 'import json,sys; print(json.load(open(sys.argv[1]))["entry"])' "$F/fixture.json")
	rm -f "$F/truth.json" "$F/fixture.json"
	commit "$F" "$f"
	run_ecg extract --repo "$F" --entry "$entry" -q
	run_ecg attribute --records "$F/records" --json "$TR/cpu/$f.json.gz"
	is "$rc" 0 "$f: the CPU trace read against the records, no call disagrees"
	cp "$T/out" "$T/$f.json"
	$py "$TR/compare.py" --truth "$T/$f.json" "$TR/cpu/$f.truth.json" "$F/records/computation_graph.json" >"$T/cmp"
	ok $? "  every module's calls are PyTorch's ($(tail -1 "$T/cmp" | sed 's/^# //'))"
	sed '$d' "$T/cmp"
	$py -c '
import json, sys
ops = [e for e in json.load(open(sys.argv[1]))["entries"] if e["kind"] == "op" and e["expected_calls"] is not None]
bad = [e["id"] for e in ops if e["calls"] != e["expected_calls"]]
print(len(ops), bad)' "$T/$f.json" >"$T/ops"
	ok "$(grep -vc ' \[\]$' "$T/ops")" "  every op entry has the calls the records expect ($(cat "$T/ops"))"
done
$py - "$T/gpt_dataclass.json" "$T/kv_cache_generate.json" >"$T/facts" <<'EOF'
import json, sys
g = {e["id"]: e for e in json.load(open(sys.argv[1]))["entries"]}
k = json.load(open(sys.argv[2]))
print(g["transformer.h.*"]["expected_calls"], g["transformer.h.*"]["calls"],
      g["transformer.h.*"]["backward"]["host_us"] > 0, g["lm_head#1"]["calls"])
print(k["unattributed"]["where"][0]["where"], k["entries"][0]["backward"]["host_us"])
EOF
is "$(sed -n 1p "$T/facts")" "6 6 True 2" "  gpt: 3 blocks x 2 micro-steps, their backward timed, an op's calls"
is "$(sed -n 2p "$T/facts")" "model.py:generate (def line 86) 0" \
	"  kv-cache generate: the sampling loop's own ops are named by their frame; no backward"
# decorated forwards (@torch.inference_mode(), @torch.no_grad()): the
# profiler's python_function frames carry co_firstlineno, the decorator's
# line, and so do the records' anchors: every frame matched by its line
$py -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["frames"]["matched"] > 0, r["frames"]["matched_by_symbol"])' "$T/decorated_forward.json" >"$T/facts"
is "$(cat "$T/facts")" "True 0" "  decorated forwards: frames matched by their first line (the decorator's), none by symbol"

# GPU traces without python frames: read, and nothing placed without frames.
# Our own Kineto-shaped traces (tests/traces/gpu/kineto_like.py) always; the
# real ones of ../shared/traces too when they are here (format grounding).
$py "$TR/gpu/kineto_like.py" "$T/kineto" >"$T/gen.out" 2>&1
ok $? "kineto_like.py writes its four traces"
gaps_trace="$T/kineto/gen-1gpu-step.json.gz"
dirs="$T/kineto"
if [ -d "$top_srcdir/../shared/traces" ]; then
	dirs="$dirs $top_srcdir/../shared/traces"
else
	echo "# ../shared/traces is not here: the generated traces only"
fi
for d in $dirs; do
	for t in "$d"/gen-* "$d"/hta-*; do
		[ -f "$t" ] || continue
		run_ecg attribute --records "$R/records" --json "$t"
		is "$rc" 1 "$(basename "$t"): read, exit 1 (nothing matched an anchor, as ecg(1) says)"
		grep -q '"device_share": 1,' "$T/out" && grep -q 'no python_function events' "$T/out"
		ok $? "  all its device time unattributed, and why"
	done
done
run_ecg attribute --records "$R/records" --json "$T/kineto/gen-nccl-ddp.json.gz"
$py -c '
import json, sys
r = json.load(open(sys.argv[1])); g = r["gaps"]
kinds = sorted((s["stream"], s["kind"]) for s in r["streams"])
print(kinds, abs(g["compute_us"] + g["communication_us"] - g["total_us"]) < 1e-6,
      all(0 <= s["utilisation"] <= 1 for s in r["streams"]))' "$T/out" >"$T/facts"
is "$(cat "$T/facts")" "[(7, 'compute'), (20, 'communication')] True True" \
	"a DDP trace: its NCCL stream is a communication stream, the gaps split between the two kinds"
for t in "$gaps_trace" "$top_srcdir/../shared/traces/hta-alexnet-1gpu.json.gz"; do
	[ -f "$t" ] || continue
	run_ecg attribute --records "$R/records" --json "$t"
	$py -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(not (r["gaps"]["count"] > 0 and all(g["cause"] for g in r["gaps"]["groups"])))' "$T/out"
	ok $? "  $(basename "$t"): idle gaps found on its stream, each with a cause"
done

# What each host event is the cause of, by its name (attrib.c's cause
# rules): one idle gap per host event, each gap's cause checked.
$py - "$T/causes.json" <<'PY'
import json, sys
names = [("cuda_runtime", "cudaStreamSynchronize", "sync"), ("cuda_runtime", "cudaMemcpy", "sync"),
         ("cuda_runtime", "cudaMemcpy2DAsync", "sync"), ("cuda_runtime", "cuCtxSynchronize", "sync"),
         ("cuda_runtime", "cudaLaunchKernel", "idle"), ("cpu_op", "aten::item", "sync"),
         ("cpu_op", "aten::nonzero", "sync"), ("cpu_op", "aten::_local_scalar_dense", "sync"),
         ("cpu_op", "nccl:all_reduce", "collective"), ("cpu_op", "c10d::allreduce_", "collective"),
         ("cpu_op", "record_param_comms", "collective"), ("cpu_op", "my_all_gather", "collective"),
         ("cpu_op", "reduce_scatter_x", "collective"), ("cpu_op", "broadcast_", "collective"),
         ("cpu_op", "aten::to", "copy"), ("cpu_op", "aten::copy_", "copy"), ("cpu_op", "aten::mm", "host"),
         ("user_annotation", "enumerate(DataLoader)#_next", "data"),
         ("python_function", "torch/utils/data/dataloader.py(620): __next__", "data"),
         ("user_annotation", "nccl:broadcast", "collective"), ("gpu_user_annotation", "aten::item", "idle")]
ev, t = [], 0.0
for i, (cat, n, _) in enumerate(names):
    ev.append(dict(ph="X", cat="kernel", name="k%d" % i, pid=0, tid=7, ts=t, dur=10, args={}))
    ev.append(dict(ph="X", cat=cat, name=n, pid=1, tid=1 + i % 3, ts=t + 5 + i / 100, dur=90, args={}))
    t += 110
ev.append(dict(ph="X", cat="kernel", name="last", pid=0, tid=7, ts=t, dur=10, args={}))
json.dump({"traceEvents": ev, "want": [[n, c] for _, n, c in names]}, open(sys.argv[1], "w"))
PY
run_ecg attribute --records "$R/records" --json --top 100 "$T/causes.json"
$py -c '
import json, sys
r = json.load(open(sys.argv[1])); want = json.load(open(sys.argv[2]))["want"]
got = {g["host"]: g["cause"] for g in r["gaps"]["groups"]}
bad = [(n, c, got.get(n)) for n, c in want if c != "idle" and got.get(n) != c]
print("#", bad); sys.exit(bool(bad) or r["gaps"]["count"] != len(want))' "$T/out" "$T/causes.json"
ok $? "each host event is the cause its name says: sync, copy, collective, data, host"

# The events are spilled to a temporary file and sorted there for each
# pass (attrib.c, spill.c).  With a run buffer of 512 bytes every pass
# goes through thousands of runs and several merge passes: the report is
# the same, byte for byte, as with everything in memory.
for t in "$GPU" "$TR/cpu/gpt_dataclass.json.gz" "$T/causes.json"; do
	case $t in
	*gpt*) recs="$T/cpu_gpt_dataclass/records" ;;
	*) recs="$R/records" ;;
	esac
	run_ecg attribute --records "$recs" --json --min-gap 1 --top 100 "$t"
	cat "$T/out" "$T/err" >"$T/mem.json"
	export ECG_SPILL_RUN_BYTES=512
	run_ecg attribute --records "$recs" --json --min-gap 1 --top 100 "$t"
	unset ECG_SPILL_RUN_BYTES
	cat "$T/out" "$T/err" >"$T/spill.json"
	cmp -s "$T/mem.json" "$T/spill.json"
	ok $? "$(basename "$t"): the same report when every pass spills and merges runs"
done
# The temporary file is unlinked as soon as it is made: nothing is left in
# $TMPDIR, after a run, after a damaged trace, or after kill -9.
mkdir "$T/tmpd"
TMPDIR="$T/tmpd" ECG_SPILL_RUN_BYTES=512 "$ECG" attribute --records "$R/records" "$GPU" >/dev/null 2>&1
TMPDIR="$T/tmpd" ECG_SPILL_RUN_BYTES=512 "$ECG" attribute --records "$R/records" "$T/crc.json.gz" >/dev/null 2>&1
TMPDIR="$T/tmpd" ECG_SPILL_RUN_BYTES=512 "$ECG" attribute --records "$R/records" "$GPU" >/dev/null 2>&1 &
kpid=$!
sleep 0.05
kill -9 $kpid 2>/dev/null
wait $kpid 2>/dev/null
is "$(ls -A "$T/tmpd" | wc -l | tr -d ' ')" 0 "no temporary file is left: after a run, a damaged trace, kill -9"
# No room for the temporary file: exit 5, the directory named, no report.
# (Not under valgrind, which needs $TMPDIR for itself.)
TMPDIR="$T/nowhere" ECG_SPILL_RUN_BYTES=512 "$ECG" attribute --records "$R/records" --json "$GPU" \
	>"$T/out" 2>"$T/err"
rc=$?
is "$rc" 5 "the temporary file cannot be made: exit 5"
grep -q "temporary file in $T/nowhere: cannot create it" "$T/err"
ok $? "  the message names the directory"
is "$(wc -c <"$T/out" | tr -d ' ')" 0 "  and there is no report"

# A hostile nesting: 6,000 host events each inside the one before it.  Past
# 4096 levels (no Python stack is that deep) the deeper events stay leaves,
# a warning says so, and the report is still made.
$py - "$T/deep.json" <<'PY'
import json, sys
n = 6000
ev = [dict(ph="X", cat="cpu_op", name="aten::add", pid=1, tid=1, ts=float(i), dur=float(2 * n - 2 * i), args={})
      for i in range(n)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$ECG" attribute --records "$R/records" --json "$T/deep.json" >"$T/deep.out" 2>"$T/deep.err"
rc=$?
[ "$rc" -le 1 ]
ok $? "a nesting 6,000 deep: a report (exit $rc, 0 or 1), no failure"
grep -q "nested deeper than 4096 levels" "$T/deep.err"
ok $? "  a warning on stderr says the deeper events are not nested"
json "$T/deep.out" 'any("deeper than 4096" in w for w in d["warnings"])' >"$T/deep.w"
is "$(cat "$T/deep.w")" "True" "  and the report's warnings say it"

# Memory follows the distinct ops, not the events (issue 20 B8): the same
# three ops and one frame repeated, 100,000 and then 400,000 events, take
# about the same peak memory (it was ~83 bytes more per event: +25 MB).
# (Plain builds only: ASan's quarantine and valgrind inflate the RSS.)
if [ -x /usr/bin/time ] && [ -z "${ECG_TEST_QUICK:-}" ] &&
   [ "${ECG_ENABLE_ASAN:-}" != yes ] && [ "${ECG_ENABLE_VALGRIND:-}" != yes ]; then
	for n in 25000 100000; do
		$py - "$T/rss-$n.json" "$n" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    f.write('{"traceEvents":[')
    t, first = 0.0, True
    for i in range(int(sys.argv[2])):
        for e in (dict(ph="X", cat="cpu_op", name="aten::mm", pid=1, tid=1, ts=t, dur=5, args={"External id": i}),
                  dict(ph="X", cat="cuda_runtime", name="cudaLaunchKernel", pid=1, tid=1, ts=t + 1, dur=2,
                       args={"correlation": i}),
                  dict(ph="X", cat="kernel", name="gemm", pid=0, tid=7, ts=t + 3, dur=4,
                       args={"correlation": i, "External id": i}),
                  dict(ph="X", cat="python_function", name="model.py(10): forward", pid=1, tid=1, ts=t, dur=6,
                       args={})):
            f.write(("" if first else ",") + json.dumps(e))
            first = False
        t += 10
    f.write("]}")
PY
		/usr/bin/time -f '%M' -o "$T/rss-$n" "$ECG" attribute --records "$R/records" "$T/rss-$n.json" >/dev/null 2>&1
		rm -f "$T/rss-$n.json"
	done
	a=$(tail -1 "$T/rss-25000") b=$(tail -1 "$T/rss-100000")
	echo "# peak RSS: 100,000 events $a KB, 400,000 events $b KB"
	[ $((b - a)) -lt 8192 ]
	ok $? "attribute's memory does not grow with the events (+$((b - a)) KB for 300,000 more)"
fi

done_testing
