#!/bin/sh
# The snippet runner of tests/interp/ (tests/unit/test_interp) judged on
# cases made to pass and to fail: a wrong expectation fails the run and
# names its line; an xfail case that fails is a TAP TODO and the run
# passes; an xfail case that passes fails the run (remove the mark); an
# unknown's reason is matched; a case without `---` or whose snippet does
# not parse fails.
. "$top_srcdir/tests/lib.sh"

RUN="$top_builddir/tests/unit/test_interp"
[ -x "$RUN" ] || skip_all "tests/unit/test_interp is not built"

run() {  # run FILE: sets $rc, output in $T/out
	"$RUN" "$1" >"$T/out" 2>&1
	rc=$?
}

cat >"$T/pass.test" <<'CASES'
## every case here passes
# known values
x = [1, 2, 3]
y = sum(x) * 2
---
y = 12
x = [1, 2, 3]

# an unknown with its reason
import os
r = os.environ.get("RANK")
---
r = unknown
r = unknown: environment

# an expected failure
# xfail: shown as TODO
a = 1
---
a = 2
CASES
run "$T/pass.test"
is "$rc" 0 "passing cases and a failing xfail: exit 0"
grep -q '^ok 1 - pass.test: known values$' "$T/out"; ok $? "a passing case is ok"
grep -q '^not ok 3 - pass.test: an expected failure # TODO shown as TODO$' "$T/out"; ok $? "a failing xfail is not ok, with a TODO directive"
grep -q "expected \`a = 2\`, got \`1\`" "$T/out"; ok $? "the TODO's diagnostic shows what was got"

cat >"$T/fail.test" <<'CASES'
# a wrong value
a = 1 + 1
---
a = 3
CASES
run "$T/fail.test"
is "$rc" 1 "a wrong expectation: exit 1"
grep -q "fail.test:4: expected \`a = 3\`, got \`2\`" "$T/out"; ok $? "the failure names the file and line"

cat >"$T/xpass.test" <<'CASES'
# fixed since
# xfail: was a bug
a = 1 + 1
---
a = 2
CASES
run "$T/xpass.test"
is "$rc" 1 "an xfail that passes: exit 1"
grep -q '^ok 1 - xpass.test: fixed since # TODO was a bug$' "$T/out"; ok $? "it is reported as ok with a TODO directive (an XPASS)"
grep -q 'passes now' "$T/out"; ok $? "with a note to remove the mark"

cat >"$T/reason.test" <<'CASES'
# the wrong reason
import os
r = os.environ.get("RANK")
---
r = unknown: not this reason
CASES
run "$T/reason.test"
is "$rc" 1 "an unknown with another reason: exit 1"

cat >"$T/known.test" <<'CASES'
# a known value expected unknown
r = 3
---
r = unknown
CASES
run "$T/known.test"
is "$rc" 1 "a known value where unknown is expected: exit 1"

cat >"$T/nosep.test" <<'CASES'
# no separator
a = 1
CASES
run "$T/nosep.test"
is "$rc" 1 "a case without --- fails"

cat >"$T/syntax.test" <<'CASES'
# does not parse
def (:
---
a = 1
CASES
run "$T/syntax.test"
is "$rc" 1 "a snippet that does not parse fails"
grep -q 'does not parse' "$T/out"; ok $? "and says so"

cat >"$T/unbound.test" <<'CASES'
# a name never bound
a = 1
---
b = 1
CASES
run "$T/unbound.test"
is "$rc" 1 "a name the snippet does not bind fails"
grep -q 'got `<unbound>`' "$T/out"; ok $? "and is shown as <unbound>"

cat >"$T/hash.test" <<'CASES'
# a name with # TODO in it
a = 1
---
a = 1
CASES
run "$T/hash.test"
is "$rc" 1 "a case name with '#' (a TAP directive) fails"
grep -q '^not ok 1 - hash.test: a name with ? TODO in it$' "$T/out"; ok $? "and its name is printed without the '#'"

done_testing
