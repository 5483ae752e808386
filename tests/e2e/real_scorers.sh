#!/bin/sh
# The real-code corpus's scorers prove themselves without any source:
# for every label, a perfect record scores 100% and broken copies fail the
# metric they break (tests/real/*/score.py --self-test).  The corpus itself
# is scored by `make check-real` when the sources are present.
. "$top_srcdir/tests/lib.sh"

PY="$TEST_PYTHON"
"$PY" "$top_srcdir/tests/real/schedule/score.py" --self-test >"$T/sched.out" 2>&1
st=$?
ok "$st" "tests/real/schedule/score.py --self-test: $(tail -1 "$T/sched.out")"
[ "$st" -eq 0 ] || grep -v '^ok' "$T/sched.out" | sed 's/^/#   /' | head -20
if [ -n "${ECG_TEST_QUICK:-}" ]; then
	echo "ok $((tap_n + 1)) # SKIP ECG_TEST_QUICK: the graph scorer's self-test (a minute)"
	tap_n=$((tap_n + 1))
else
	"$PY" "$top_srcdir/tests/real/graph/score.py" --self-test >"$T/graph.out" 2>&1
	st=$?
	ok "$st" "tests/real/graph/score.py --self-test: $(grep -c '^ok' "$T/graph.out") cases"
	[ "$st" -eq 0 ] || grep -v '^ok' "$T/graph.out" | sed 's/^/#   /' | head -20
fi
done_testing
