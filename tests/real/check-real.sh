#!/bin/sh
# check-real.sh ECG - score ecg on the real-code corpus (`make check-real`).
#
# Each part of the corpus (tests/real/<part>/: graph, schedule) has a
# score.py that reads its hand-made labels (<part>/<job>.json: repository,
# commit, entry, arguments, and the facts), runs ECG on every job whose
# source is present, scores the records against the labels, and says which
# jobs it skipped and why.  Nothing is fetched: a job's source is a git
# directory at $ECG_REAL_MIRROR/<owner>+<name>/repo (default /work/.mirror,
# where the search tool's fetch puts it), and it must hold the labelled commit.
#
# Exit 0 when every present part ran (figures below thresholds are reported,
# not failed, unless ECG_REAL_STRICT=1); 1 when a part failed to run or, in
# strict mode, missed a threshold.
set -u
ecg=${1:?usage: check-real.sh ECG}
here=$(cd "$(dirname "$0")" && pwd)
py=${TEST_PYTHON:-python3}
case $ecg in /*) ;; *) ecg=$(pwd)/$ecg ;; esac
echo "check-real: corpus at $here, sources from ${ECG_REAL_MIRROR:-/work/.mirror}"
status=0
parts=0
for s in "$here"/*/score.py; do
	[ -f "$s" ] || continue
	parts=$((parts + 1))
	part=$(basename "$(dirname "$s")")
	echo "check-real: === $part ==="
	"$py" "$s" --ecg "$ecg" || { echo "check-real: $part: exit $?"; status=1; }
done
[ "$parts" -gt 0 ] || { echo "check-real: no part of the corpus has a score.py"; exit 1; }
exit $status
