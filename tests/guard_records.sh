#!/bin/sh
# guard_records.sh NEW_ECG REF_ECG WORKDIR
#
# A refactoring guard, not part of `make check`: the records a changed ecg
# writes must be byte-identical to those of a reference binary.  Runs
# `ecg extract` on every tests/fixtures/<name> and tests/schedule_fixtures/<name>
# job (entry and argv from fixture.json / expected.json), on examples/minigpt,
# and on real repositories read from bare git dirs (ECG_GUARD_MIRROR, default
# /work/.mirror, skipped when absent), plus `ecg jobs --json` on those
# repositories; then cmp's both records and the jobs listing.
#
# The fixture repositories and the reference outputs are built once under
# WORKDIR (delete WORKDIR/ref to recompute them).  Exit 0 when all match,
# 1 when any differs (each difference is named on stderr).
set -u
NEW=$1 REF=$2 W=$3
top=$(cd "$(dirname "$0")/.." && pwd)
MIRROR=${ECG_GUARD_MIRROR:-/work/.mirror}
PY=${PYTHON:-python3}
mkdir -p "$W/repos" "$W/ref" "$W/new"
fail=0 n=0

field() {  # field JSONFILE EXPR
	"$PY" -I -S -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

mkfix() {  # mkfix SRC NAME: a git repository of the job (without oracle files)
	R="$W/repos/$2"
	[ -d "$R/.git" ] && return
	rm -rf "$R"; mkdir -p "$R"
	(cd "$1" && find . -type f ! -name truth.json ! -name fixture.json \
		! -name expected.json ! -name '*.pyc' ! -path '*/__pycache__/*' -print) |
	while IFS= read -r f; do mkdir -p "$R/${f%/*}" && cp "$1/$f" "$R/$f"; done
	git init -q -b main "$R" && git -C "$R" add -A &&
	GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z' \
	git -C "$R" -c user.name=g -c user.email=g@g commit -q -m "$2"
}

cmp_dir() {  # cmp_dir TAG
	for f in computation_graph.json execution_schedule.json; do
		if ! cmp -s "$W/ref/$1/$f" "$W/new/$1/$f"; then
			echo "DIFF $1 $f" >&2; fail=1
		fi
	done
	if ! cmp -s "$W/ref/$1.rc" "$W/new/$1.rc"; then echo "DIFF $1 exit status" >&2; fail=1; fi
	n=$((n + 1))
}

run() {  # run TAG ECG-ARGS... : extract into ref (once) and new, compare
	tag=$1; shift
	if [ ! -f "$W/ref/$tag.rc" ]; then
		rm -rf "$W/ref/$tag"
		"$REF" extract --out "$W/ref/$tag" --no-cache -q "$@" >/dev/null 2>&1
		echo $? >"$W/ref/$tag.rc"
	fi
	rm -rf "$W/new/$tag"
	"$NEW" extract --out "$W/new/$tag" --no-cache -q "$@" >/dev/null 2>&1
	echo $? >"$W/new/$tag.rc"
	cmp_dir "$tag"
}

jobs() {  # jobs TAG REPO
	if [ ! -f "$W/ref/jobs-$1.json" ]; then
		"$REF" jobs --repo "$2" --rev HEAD --json -q >"$W/ref/jobs-$1.json" 2>/dev/null
	fi
	"$NEW" jobs --repo "$2" --rev HEAD --json -q >"$W/new/jobs-$1.json" 2>/dev/null
	if ! cmp -s "$W/ref/jobs-$1.json" "$W/new/jobs-$1.json"; then
		echo "DIFF jobs $1" >&2; fail=1
	fi
	n=$((n + 1))
}

for kind in fixtures schedule_fixtures; do
	for d in "$top/tests/$kind"/*/; do
		name=$(basename "$d")
		meta="$d/fixture.json"; [ -f "$meta" ] || meta="$d/expected.json"
		[ -f "$meta" ] || continue
		mkfix "$d" "$kind-$name"
		entry=$(field "$meta" 'd["entry"]')
		argv=$(field "$meta" '"\n".join(d.get("argv", []))')
		set -f; IFS='
'
		# shellcheck disable=SC2086
		run "$kind-$name" --repo "$W/repos/$kind-$name" --entry "$entry" -- $argv
		unset IFS; set +f
	done
done
mkfix "$top/examples/minigpt" examples-minigpt
run minigpt --repo "$W/repos/examples-minigpt" --entry train.py

real() {  # real TAG OWNER+NAME ENTRY
	g="$MIRROR/$2/repo"
	[ -d "$g" ] || { echo "skip $2 (no mirror)" >&2; return; }
	run "$1" --repo "$g" --rev HEAD --entry "$3"
}
real nanogpt karpathy+nanoGPT train.py
real mingpt karpathy+minGPT projects/chargpt/chargpt.py
real mnist pytorch+examples mnist/main.py
real imagenet pytorch+examples imagenet/main.py
real wlm pytorch+examples word_language_model/main.py
real detr facebookresearch+detr main.py
real llama meta-llama+llama example_text_completion.py
real ddpm lucidrains+denoising-diffusion-pytorch denoising_diffusion_pytorch/classifier_free_guidance.py
for r in karpathy+nanoGPT karpathy+minGPT pytorch+examples facebookresearch+detr meta-llama+llama lucidrains+denoising-diffusion-pytorch; do
	[ -d "$MIRROR/$r/repo" ] && jobs "$r" "$MIRROR/$r/repo"
done
echo "guard: $n comparisons, $( [ $fail -eq 0 ] && echo all identical || echo DIFFERENCES)"
exit $fail
