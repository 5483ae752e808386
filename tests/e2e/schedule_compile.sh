#!/bin/sh
# Compile regions reached through decorators and options (issue 15): the
# fixture tests/schedule_fixtures/compile_decorators compiles two functions
# by decorator at import (one with options, one bare) and its model through
# the decorator form torch.compile(mode=...)(model).  score_schedule.py
# does not score compile regions, so they are checked here: target, anchor
# (the decorator's line, scope <module>) and mode.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cp "$top_srcdir/tests/schedule_fixtures/compile_decorators/"*.py "$R/"
chmod -R u+w "$R"
commit "$R" "compile decorators"
run_ecg extract --repo "$R" --entry train.py -q --no-env --out "$T/o"
is "$rc" 0 "extract exits 0"
regions() { json "$T/o/execution_schedule.json" 'sorted((c["target"], c["anchor"], c["mode"]) for c in d["compute"]["compile_regions"])'; }
is "$(regions)" \
	"[('clip_fused', 'optim.py:<module>:10', None), ('model', 'train.py:main:19', 'reduce-overhead'), ('sgd_step_fused', 'optim.py:<module>:5', None)]" \
	"three regions: @torch.compile(...) and bare @torch.compile over defs (at the decorator), torch.compile(mode=...)(model)"

done_testing
