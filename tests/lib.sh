# tests/lib.sh - sourced by the end-to-end tests (tests/e2e/*.sh).
#
# Gives: TAP output (ok, is, todo, skip_all, done_testing), a scratch directory
# per test ($T), fixture repositories with fixed dates (mkrepo, commit),
# and run_ecg, which runs the build-tree binary (under valgrind when
# configured with --enable-valgrind) and keeps its stdout, stderr and status
# in $T/out, $T/err and $rc.

set -u
: "${top_srcdir:?run the tests with make check}"
: "${top_builddir:?run the tests with make check}"
. "$top_builddir/tests/env.sh"

ECG="$top_builddir/ecg"
test_name=$(basename "$0" .sh)
T="$top_builddir/tests/tmp/$test_name"
rm -rf "$T"
mkdir -p "$T"
tap_n=0
tap_failed=0

# Fixed identities and dates: fixture repositories are byte-identical runs to runs.
export GIT_AUTHOR_NAME=ecg-test GIT_AUTHOR_EMAIL=test@ecg.invalid
export GIT_COMMITTER_NAME=ecg-test GIT_COMMITTER_EMAIL=test@ecg.invalid
export GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
export GIT_CONFIG_NOSYSTEM=1 HOME="$T" LC_ALL=C
unset XDG_CACHE_HOME   # the tree cache goes to $HOME/.cache/ecg: in $T
unset GIT_DIR GIT_WORK_TREE

ok() {  # ok STATUS DESCRIPTION: STATUS is a command's exit status (0 = pass)
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

is() {  # is GOT WANT DESCRIPTION
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2" | head -20
	fi
}

diag() { printf '# %s\n' "$*"; }

skip_all() { echo "1..0 # SKIP $*"; exit 0; }

todo() {  # todo STATUS DESCRIPTION REASON: a known failure (TAP TODO): XFAIL
	# while it fails, XPASS (reported) once it passes; never fails the script
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2 # TODO $3"
	else
		echo "not ok $tap_n - $2 # TODO $3"
	fi
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit $?
}

# mkrepo DIR: a fresh repository with a fixed default branch.
mkrepo() {
	rm -rf "$1"
	"$GIT" init -q -b main "$1"
}

# commit DIR MESSAGE: commit everything in DIR.
commit() {
	"$GIT" -C "$1" add -A
	"$GIT" -C "$1" commit -q --allow-empty -m "$2"
}

# run_ecg ARGS...: sets $rc; output in $T/out and $T/err.
run_ecg() {
	if [ "$ECG_ENABLE_VALGRIND" = yes ]; then
		"$VALGRIND" --quiet --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite --show-leak-kinds=definite \
			--suppressions="$top_srcdir/tests/valgrind.supp" \
			"$ECG" "$@" >"$T/out" 2>"$T/err"
	else
		"$ECG" "$@" >"$T/out" 2>"$T/err"
	fi
	rc=$?
	if [ "$rc" -ge 90 ]; then
		diag "ecg $* exited $rc:"
		sed 's/^/#   /' "$T/err" | head -40
	fi
}

# json FILE EXPR: print a Python expression over the JSON document `d`.
json() {
	"$TEST_PYTHON" -I -S -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
