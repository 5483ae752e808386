#!/bin/sh
# Bad input: every per-file problem becomes a parse_errors or unresolved entry
# naming file and line, and the run goes on; every whole-run problem gets a
# message naming what and where, and its documented exit status.
. "$top_srcdir/tests/lib.sh"

R="$T/bad"
mkrepo "$R"
P="$TEST_PYTHON"
printf 'import torch\n\nclass A:\n    pass\n' >"$R/good.py"
printf 'x = 1\ndef f(:\n    pass\n' >"$R/syntax.py"
printf 'x = 1\ny = "a\0b"\n' >"$R/nul.py"
printf 'x = 1\ns = "caf\351"\n' >"$R/undecodable.py"
printf '# -*- coding: latin-1 -*-\ns = "caf\351"\n' >"$R/latin1.py"
"$P" -c 'print("x = " + "(" * 100000 + "1" + ")" * 100000)' >"$R/deep.py"
"$P" -c 'print("x = " + "-" * 100000 + "1")' >"$R/deep_unary.py"
"$P" -c '
import sys
line = "value = 1234567890  # padding padding padding padding padding\n"
sys.stdout.write(line * (50 * 1024 * 1024 // len(line) + 1))' >"$R/huge.py"
head -c 4096 /dev/urandom >"$R/binary.py"
printf '\177ELF\2\1\1\0\0\0' >>"$R/binary.py"
ln -s good.py "$R/link.py"
printf 'def ok():\n    return 1\n' >"$R/zlast.py"
commit "$R" "bad files"
sub=$("$GIT" -C "$R" rev-parse HEAD)
"$GIT" -C "$R" update-index --add --cacheinfo "160000,$sub,vendor/lib"
"$GIT" -C "$R" commit -q -m "a submodule gitlink"

run_ecg extract --repo "$R" --out "$T/o"
G="$T/o/computation_graph.json"
is "$rc" 0 "per-file problems do not stop the run (exit 0)"
ok "$(test -f "$G" && test -f "$T/o/execution_schedule.json"; echo $?)" "both records are written"
"$P" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$T/o" >"$T/schema.out" 2>&1
ok $? "the records validate against schemas/"
sed 's/^/# /' "$T/schema.out" | grep -v '^# ok' || true

pe() { json "$G" "[(e['line'], e['col'], e['message']) for e in d['parse_errors'] if e['file'] == '$1']"; }
files=$(json "$G" '" ".join(f["path"] for f in d["files"])')
is "$files" "binary.py deep.py deep_unary.py good.py huge.py latin1.py nul.py syntax.py undecodable.py zlast.py" \
	"every regular .py file is in files, in order, including the bad ones"
is "$(pe good.py)" "[]" "a good file has no parse error"
is "$(pe zlast.py)" "[]" "a file after the bad ones is still read"
is "$(pe latin1.py)" "[]" "a latin-1 file with a PEP 263 cookie parses"
is "$(pe syntax.py)" "[(2, 7, 'invalid syntax')]" "a syntax error: line, column and message"
grep -q 'syntax.py:2:7: invalid syntax' "$T/err"
ok $? "  and a warning on stderr names file:line:col"
is "$(pe nul.py)" "[(2, 7, 'source contains a NUL byte')]" "NUL bytes: the line and column of the first"
pe undecodable.py | grep -q "utf-8"
ok $? "undecodable bytes with no cookie: $(pe undecodable.py)"
is "$(json "$G" "len([e for e in d['parse_errors'] if e['file'] == 'undecodable.py' and e['line'] == 2])")" 1 \
	"  on line 2"
pe deep.py | grep -qi "nest\|recurs"
ok $? "a 100,000-deep nested expression is a parse error, not a crash: $(pe deep.py | cut -c1-120)"
pe deep_unary.py | grep -qi "nest\|recurs\|deep"
ok $? "a 100,000-long unary chain too: $(pe deep_unary.py | cut -c1-120)"
pe huge.py | grep -q "over the limit"
ok $? "a 50 MB file is refused by size: $(pe huge.py)"
pe binary.py | grep -q "NUL byte\|invalid\|decode\|utf-8"
ok $? "a binary blob named .py is a parse error: $(pe binary.py | cut -c1-100)"
is "$(json "$G" "[(u['anchor'], u['what']) for u in d['unresolved']]")" \
	"[('link.py', \"symbolic link to 'good.py'\"), ('vendor/lib', 'submodule at commit $sub')]" \
	"a symlink and a submodule are listed in unresolved, not followed"

# the same records from worker processes (-j): parse errors included
run_ecg extract --repo "$R" --out "$T/o-j3" -q -j 3
is "$rc" 0 "-j 3 exits 0"
cmp -s "$G" "$T/o-j3/computation_graph.json" && cmp -s "$T/o/execution_schedule.json" "$T/o-j3/execution_schedule.json"
ok $? "  and writes byte-identical records"

# --- the parser processes parse with the core of the interpreter and
# hand what it cannot parse (a codec to look up) to a complete one: the
# records are the same in this process (-j 1), by default and with -j 2
C="$T/codecs"
mkrepo "$C"
printf '# -*- coding: cp1252 -*-\ns = "\200"\n' >"$C/cp1252.py"
printf '# -*- coding: nope -*-\ns = 1\n' >"$C/badcookie.py"
printf 'x = 1\ns = "caf\351"\n' >"$C/undecodable.py"
printf 'def ok():\n    return 1\n' >"$C/ok.py"
"$P" -c 'print("x = " + "-" * 100000 + "1")' >"$C/deep_unary.py"
commit "$C" "codecs"
for j in 1 2 0; do
	if [ "$j" = 0 ]; then run_ecg extract --repo "$C" -q --out "$T/c$j"
	else run_ecg extract --repo "$C" -q -j "$j" --out "$T/c$j"; fi
	is "$rc" 0 "codecs, -j $j (0: default) exits 0"
done
CG="$T/c1/computation_graph.json"
is "$(json "$CG" "sorted((e['file'], e['message'][:40]) for e in d['parse_errors'])")" \
	"[('badcookie.py', 'unknown encoding: nope'), ('deep_unary.py', 'MemoryError: the parser ran out of stack'), ('undecodable.py', \"(unicode error) 'utf-8' codec can't deco\")]" \
	"a cp1252 cookie parses; an unknown codec, bad bytes and deep nesting are parse errors"
for j in 2 0; do
	cmp -s "$CG" "$T/c$j/computation_graph.json" && cmp -s "$T/c1/execution_schedule.json" "$T/c$j/execution_schedule.json"
	ok $? "  -j $j (0: default) gives the records of -j 1 byte for byte"
done

# --- a small stack (ulimit -s): a soft limit is raised, so the parser's own
# limits hold; under a hard one a parser process that crashes costs the
# file it was on, and the run goes on (valgrind brings its own stack)
if [ "$ECG_ENABLE_VALGRIND" != yes ]; then
	(ulimit -S -s 256 && exec "$ECG" extract --repo "$C" -q -j 1 --out "$T/c-soft" >"$T/out" 2>"$T/err")
	is "$?" 0 "ulimit -S -s 256, -j 1: exits 0"
	cmp -s "$CG" "$T/c-soft/computation_graph.json"
	ok $? "  and the same records (the soft limit was raised)"
	if (ulimit -s 256) 2>/dev/null; then
		(ulimit -s 256 && exec "$ECG" extract --repo "$C" -q -j 2 --out "$T/c-hard" >"$T/out" 2>"$T/err")
		is "$?" 0 "ulimit -s 256 (hard), -j 2: exits 0"
		grep -q 'stack is limited to 256 KiB' "$T/err"
		ok $? "  and warns that the stack is limited"
		json "$T/c-hard/computation_graph.json" "[e['message'] for e in d['parse_errors'] if e['file'] == 'deep_unary.py']" \
			| grep -q 'the parser process \(died\|failed\)'
		ok $? "  the file a parser process crashed on says so: $(json "$T/c-hard/computation_graph.json" "[e['message'][:60] for e in d['parse_errors'] if e['file'] == 'deep_unary.py']")"
		is "$(json "$T/c-hard/computation_graph.json" "sorted(e['file'] for e in d['parse_errors'])")" \
			"['badcookie.py', 'deep_unary.py', 'undecodable.py']" "  and every other file has its answer"
	fi
fi

# --- the 50 MB file is read when the limit allows it (too slow under
# valgrind; not in the quick mode, ECG_TEST_QUICK)
if [ "$ECG_ENABLE_VALGRIND" != yes ] && [ -z "${ECG_TEST_QUICK:-}" ]; then
run_ecg extract --repo "$R" --out "$T/o2" -q --max-file-size 100000000 --max-file-tokens 100000000
is "$(json "$T/o2/computation_graph.json" "[e['file'] for e in d['parse_errors'] if e['file']=='huge.py']")" "[]" \
	"--max-file-size raises the limit and the 50 MB file parses"
fi

# --- blobs missing from the object store (a partial clone, a mirror
# without its large files): a per-file problem, not the run's
mkrepo "$T/partial"
printf 'x = 1\n' >"$T/partial/ok.py"
printf 'y = 2  # gone\n' >"$T/partial/gone.py"
printf 'big data\n' >"$T/partial/data.bin"
commit "$T/partial" "partial"
for f in gone.py data.bin; do
	sha=$("$GIT" -C "$T/partial" rev-parse "HEAD:$f")
	rm -f "$T/partial/.git/objects/$(echo "$sha" | cut -c1-2)/$(echo "$sha" | cut -c3-)"
done
run_ecg extract --repo "$T/partial" --out "$T/o-partial" -q
is "$rc" 0 "missing blobs do not stop the run"
is "$(json "$T/o-partial/computation_graph.json" "[(e['file'], 'cannot read blob' in e['message']) for e in d['parse_errors']]")" \
	"[('gone.py', True)]" "  a missing .py blob is a parse error naming the file"

# --- whole-run problems
mkrepo "$T/empty"
run_ecg extract --repo "$T/empty" --out "$T/o3"
is "$rc" 3 "an empty repository: exit 3"
grep -q "has no commits" "$T/err"
ok $? "  message: $(cat "$T/err")"

run_ecg extract --repo "$R" --rev no-such-branch --out "$T/o3"
is "$rc" 3 "an unknown revision: exit 3"
grep -q "no-such-branch" "$T/err"
ok $? "  message names it: $(cat "$T/err")"

# outside any repository: the build tree may itself be inside a clone
PLAIN=$(mktemp -d "${TMPDIR:-/tmp}/ecg-plain.XXXXXX")
if "$GIT" -C "$PLAIN" rev-parse --git-dir >/dev/null 2>&1; then
	PLAIN_IN_REPO=1
else
	PLAIN_IN_REPO=0
fi
if [ "$PLAIN_IN_REPO" = 0 ]; then
	# (a directory there is read as a work tree: plaindir.sh)
	echo x >"$PLAIN/file.txt"
	run_ecg extract --repo "$PLAIN/file.txt" --out "$T/o3"
	is "$rc" 3 "a file that is not in a repository: exit 3"
	grep -q "$PLAIN/file.txt' is not a git repository" "$T/err"
	ok $? "  message names it: $(cat "$T/err")"
else
	diag "skipped: $PLAIN is inside a git repository"
fi

rm -rf "$PLAIN" "$T/o3"
run_ecg extract --repo "$T/does-not-exist" --out "$T/o3"
is "$rc" 3 "a path that does not exist: exit 3"

run_ecg extract --repo "$R" --entry nope.py --out "$T/o3"
is "$rc" 3 "an entry that is not in the commit: exit 3"
grep -q "nope.py" "$T/err"
ok $? "  message names it: $(cat "$T/err")"
ok "$(test ! -e "$T/o3"; echo $?)" "  and nothing is written"

# --- an output directory that cannot be written; earlier records survive
cp "$G" "$T/before.json"
printf 'not a dir\n' >"$T/afile"
run_ecg extract --repo "$R" -q --out "$T/afile/records"
is "$rc" 4 "an output path under a regular file: exit 4"
grep -q "$T/afile" "$T/err"
ok $? "  message names it: $(cat "$T/err")"
if [ "$(id -u)" != 0 ]; then
	chmod a-w "$T/o"
	run_ecg extract --repo "$R" -q --out "$T/o"
	is "$rc" 4 "a read-only output directory: exit 4"
	chmod u+w "$T/o"
else
	run_ecg extract --repo "$R" -q --out /proc/ecg-records
	is "$rc" 4 "an output directory on a read-only file system (/proc): exit 4"
fi
cmp -s "$G" "$T/before.json"
ok $? "the earlier records are intact"

done_testing
