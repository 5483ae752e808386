#!/bin/sh
# The command line people script against: help, version, exit codes, and
# the man page agreeing with --help.
. "$top_srcdir/tests/lib.sh"

run_ecg --help
is "$rc" 0 "--help exits 0"
grep -q "extract" "$T/out"
ok $? "--help lists extract"
run_ecg
is "$rc" 2 "no command: exit 2"
run_ecg --version
is "$rc" 0 "--version exits 0"
grep -q "^ecg (extract-computation-graph) [0-9]" "$T/out"
ok $? "--version names the package and version"
grep -q "^parser: CPython 3\." "$T/out"
ok $? "--version names the embedded parser"
is "$(sed -n 's/^helpers: //p' "$T/out")" "$top_srcdir/pyhelpers" \
	"the build-tree binary finds the source tree's helpers with no environment variable"
run_ecg extract --help
is "$rc" 0 "extract --help exits 0"
cp "$T/out" "$T/extract-help"
run_ecg help extract
cmp -s "$T/out" "$T/extract-help"
ok $? "'help extract' is 'extract --help'"
run_ecg nosuch
is "$rc" 2 "an unknown command: exit 2"
grep -q "nosuch" "$T/err"
ok $? "  named in the message"
run_ecg extract --bogus
is "$rc" 2 "an unknown option: exit 2"
grep -q -- "--bogus" "$T/err"
ok $? "  named in the message: $(cat "$T/err")"
run_ecg extract --max-file-size -3
is "$rc" 2 "a bad --max-file-size: exit 2"
run_ecg extract --helpers-dir /nonexistent
is "$rc" 2 "a --helpers-dir without helpers: exit 2"

# Every long option of extract --help is documented in ecg(1), and back.
help_opts=$(grep -o -- '--[a-z][a-z-]*' "$T/extract-help" | sort -u)
man_opts=$(sed -n '/^\.SH EXTRACT/,/^\.SH [^E]/p' "$top_srcdir/man/ecg.1" | sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | sort -u)
is "$man_opts" "$help_opts" "ecg(1) documents exactly the options of 'extract --help'"
for code in 0 2 3 4 5 6; do
	grep -q "^$code " "$T/extract-help" || grep -q "[ ,;]$code [a-z]" "$T/extract-help"
	ok $? "extract --help documents exit status $code"
done
run_ecg jobs --help
is "$rc" 0 "jobs --help exits 0"
help_opts=$(grep -o -- '--[a-z][a-z-]*' "$T/out" | sort -u)
man_opts=$(sed -n '/^\.SH JOBS/,/^\.SH CHECK/p' "$top_srcdir/man/ecg.1" | sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | sort -u)
is "$man_opts" "$help_opts" "ecg(1) documents exactly the options of 'jobs --help'"
for cmd in check refresh show render attribute; do
	run_ecg $cmd --help
	is "$rc" 0 "$cmd --help exits 0"
	help_opts=$(grep -o -- '--[a-z][a-z-]*' "$T/out" | sort -u)
	sec=$(echo "$cmd" | tr a-z A-Z)
	man_opts=$(sed -n "/^\.SH $sec/,/^\.SH [^$(echo "$sec" | cut -c1)]/p" "$top_srcdir/man/ecg.1" |
		sed 's/\\-/-/g' | sed '1d;$d' | grep -o -- '--[a-z][a-z-]*' | sort -u)
	is "$man_opts" "$help_opts" "ecg(1) documents exactly the options of '$cmd --help'"
done
run_ecg --help
grep -q "^  jobs " "$T/out"
ok $? "--help lists jobs"
grep -q '^\.SH "EXIT STATUS"' "$top_srcdir/man/ecg.1"
ok $? "ecg(1) has an EXIT STATUS section"

done_testing
