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

# A class of the repository over a def, compiling it lazily in its
# __call__ (tests/schedule_fixtures/compile_wrap_class, k-diffusion's
# flags.compile_wrap): one region for each kernel every path calls,
# anchored at its decorator; none for the kernel only the path of an
# undecided dtype test calls (a region has no condition).  The helper
# returning False on one path of that test and True on the other is not
# known in the forward: the sync on the fast path keeps the condition.
W="$T/wrap"
mkrepo "$W"
cp "$top_srcdir/tests/schedule_fixtures/compile_wrap_class/"*.py "$W/"
chmod -R u+w "$W"
commit "$W" "compile wrapper class"
run_ecg extract --repo "$W" --entry train.py -q --no-env --out "$T/w"
is "$rc" 0 "extract exits 0 (compile wrapper class)"
regions() { json "$T/w/execution_schedule.json" 'sorted((c["target"], c["anchor"]) for c in d["compute"]["compile_regions"])'; }
is "$(regions)" \
	"[('rms_norm', 'model.py:<module>:7'), ('scale_pair', 'model.py:<module>:17')]" \
	"a wrapper class's lazy torch.compile: the kernels every path calls, at their decorators; not the fast path's"
is "$(json "$T/w/execution_schedule.json" '[r.get("condition") for r in d["host_device"] if r["anchor"] == "model.py:Block.forward:42"]')" \
	"['fast_path(qk)']" \
	"a forward helper's bool on two paths of an undecided test is not known: the fast path's sync keeps its condition"

done_testing
