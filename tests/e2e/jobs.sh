#!/bin/sh
# ecg jobs: the runnable jobs of a commit, found by main guard, package
# __main__.py, console scripts (pyproject.toml, setup.cfg, setup.py) and
# shell launchers, each classified on evidence; and extract --entry taking
# the entries it lists (FILE:FUNC, MODULE:FUNC).  The fixture is
# tests/jobs_fixture plus the FastAPI server of the schedule fixtures.
. "$top_srcdir/tests/lib.sh"

R="$T/repo"
mkrepo "$R"
cp -R "$top_srcdir/tests/jobs_fixture/." "$R/"
mkdir -p "$R/serve"
cp "$top_srcdir/tests/schedule_fixtures/fastapi_lm_server/"*.py "$R/serve/"
commit "$R" "jobs fixture"

run_ecg jobs --repo "$R" --json
is "$rc" 0 "jobs --json exits 0"
cp "$T/out" "$T/jobs.json"
J="$T/jobs.json"

is "$(json "$J" "[j['entry'] for j in d['jobs']]")" \
   "['acme_pkg/__main__.py', 'serve/server.py', 'src/acme/cli/score.py:run', 'src/acme/cli/train.py:main', 'tools/bench_throughput.py', 'tools/ddp_spawn.py', 'tools/lbfgs_fit.py', 'tools/plot_loss.py']" \
   "every job, sorted; the model file (a registry loop at module level, in a package) and the package __init__ are not jobs"

ty() { json "$J" "[j['job_type'] for j in d['jobs'] if j['entry'] == '$1'][0]"; }
fb() { json "$J" "[[(f['how'], f['where']) for f in j['found_by']] for j in d['jobs'] if j['entry'] == '$1'][0]"; }
st() { json "$J" "[j['step'] for j in d['jobs'] if j['entry'] == '$1'][0]"; }

is "$(ty src/acme/cli/train.py:main)" training "console script main(): backward + optimizer step = training"
is "$(fb src/acme/cli/train.py:main)" "[('console_script', 'pyproject.toml:[project.scripts]')]" \
   "found by pyproject.toml [project.scripts]"
is "$(json "$J" "[j['anchor'] for j in d['jobs'] if j.get('function') == 'main'][0]")" \
   "src/acme/cli/train.py:main:20" "a console script's anchor is its function's definition"
is "$(st src/acme/cli/train.py:main)" "src/acme/cli/train.py:train:11" "the step is the training loop, two calls down"

is "$(ty src/acme/cli/score.py:run)" batch "no_grad loop that writes results = batch"
is "$(fb src/acme/cli/score.py:run)" "[('console_script', 'setup.cfg:[options.entry_points]:5')]" \
   "found by setup.cfg console_scripts (continuation line)"

is "$(ty serve/server.py)" inference_serving "FastAPI handler calling the model = inference_serving"
is "$(fb serve/server.py)" "[('main_guard', 'serve/server.py:<module>:80')]" "found by its main guard"

is "$(ty acme_pkg/__main__.py)" training "torchrun -m pkg runs pkg/__main__.py, which calls main(): training"
is "$(fb acme_pkg/__main__.py)" "[('package_main', 'acme_pkg/__main__.py:<module>:1'), ('launcher', 'scripts/launch.sh:4')]" \
   "found as a package __main__ and by the launcher's continued line"
is "$(json "$J" "[j['job_args'] for j in d['jobs'] if j['entry'] == 'acme_pkg/__main__.py'][0]")" \
   "['--steps', '500']" "the launcher's job arguments, without the torchrun options or the comment"

is "$(ty tools/bench_throughput.py)" batch "a script with no main guard: a no_grad loop at module level = batch"
is "$(fb tools/bench_throughput.py)" "[('script', 'tools/bench_throughput.py:<module>:11')]" \
   "found as a script by its module-level with-block"
is "$(ty tools/ddp_spawn.py)" training "mp.spawn(worker, args=...): the worker's DDP loop = training"
is "$(st tools/ddp_spawn.py)" "tools/ddp_spawn.py:worker:20" "the step is the worker's loop"
is "$(ty tools/lbfgs_fit.py)" training "LBFGS: backward inside the closure optimizer.step(closure) calls = training"
is "$(ty tools/plot_loss.py)" None "a plotting script: no type (never assumed training)"
is "$(json "$J" "[j['reason'] for j in d['jobs'] if j['entry'] == 'tools/plot_loss.py'][0]")" \
   "no evidence: no backward(), request handler or no_grad loop that ecg could follow" "with the reason"
is "$(json "$J" "[(u['what'], u['reason']) for u in d['unresolved']]")" \
   "[('console script acme-lint = ruff.__main__:main', 'the module is not in the repository')]" \
   "a console script of an installed package is listed as not followed"
is "$(json "$J" "d['commit']")" "$("$GIT" -C "$R" rev-parse HEAD)" "the commit read"

run_ecg jobs --repo "$R" --json
cmp -s "$T/out" "$J"
ok $? "the same output twice (deterministic)"

# the table (wide enough for FOUND BY: under 90 columns it is left to --json)
run_ecg jobs --repo "$R" --width 200
is "$rc" 0 "jobs (table) exits 0"
is "$(head -1 "$T/out" | tr -s ' ')" "ENTRY TYPE STEP FOUND BY" "table header"
is "$(grep -c . "$T/out")" 9 "a header and one line per job"
grep -q '^src/acme/cli/score.py:run  *batch  *src/acme/cli/score.py:run:12 ' "$T/out"
ok $? "a line: entry, type, step, evidence"

# extract takes the entries jobs lists
run_ecg extract --repo "$R" --entry src/acme/cli/train.py:main --out "$T/rec1" -q
is "$rc" 0 "extract --entry FILE:FUNC"
is "$(json "$T/rec1/execution_schedule.json" "(d['entrypoint']['anchor'], d['job_type']['value'])")" \
   "('src/acme/cli/train.py:main:20', 'training')" "entrypoint anchor is the function; job type training"
is "$(json "$T/rec1/computation_graph.json" "[m['repeat']['count'] for m in d['modules'] if m['id'] == 'blocks.*'][0]")" \
   4 "the model behind the console script: 4 x blocks"
run_ecg extract --repo "$R" --entry acme.cli.score:run --out "$T/rec2" -q
is "$rc" 0 "extract --entry MODULE:FUNC (console-script form, module under src/)"
is "$(json "$T/rec2/execution_schedule.json" "d['entrypoint']['file']")" "src/acme/cli/score.py" "resolved to the file"
run_ecg extract --repo "$R" --entry src/acme/cli/train.py:nope --out "$T/rec3" -q
is "$rc" 3 "FILE:FUNC with no such function: exit 3"
grep -q "src/acme/cli/train.py defines no function 'nope'" "$T/err"
ok $? "naming the file and the function"
test ! -e "$T/rec3/computation_graph.json"
ok $? "and no records written"

# setup.py console scripts; a bare repository; --rev
S="$T/setup"
mkrepo "$S"
mkdir -p "$S/tool"
cat >"$S/setup.py" <<'PY'
from setuptools import setup

setup(
    name="tool",
    entry_points={
        "console_scripts": [
            "tool-train = tool.train:cli",
        ],
    },
)
PY
: >"$S/tool/__init__.py"
cat >"$S/tool/train.py" <<'PY'
import torch


def cli():
    model = torch.nn.Linear(8, 8)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        model(torch.randn(4, 8)).sum().backward()
        opt.step()
PY
commit "$S" "setup.py"
"$GIT" clone -q --bare "$S" "$T/bare.git"
run_ecg jobs --repo "$T/bare.git" --json
is "$rc" 0 "a bare repository"
is "$(json "$T/out" "[(j['entry'], j['job_type'], j['found_by'][0]['where']) for j in d['jobs']]")" \
   "[('tool/train.py:cli', 'training', 'setup.py:<module>:7')]" "setup.py console_scripts, line of the literal"
run_ecg jobs --repo "$R" --rev does-not-exist
is "$rc" 3 "unknown revision: exit 3"
run_ecg jobs --bogus
is "$rc" 2 "unknown option: exit 2"
run_ecg jobs --help
is "$rc" 0 "--help"
grep -q "usage: ecg jobs" "$T/out"
ok $? "--help prints the usage"

# More than 64 jobs: the trainer is read, tests come last
R3="$T/many"
mkrepo "$R3"
mkdir -p "$R3/tests" "$R3/work/deep/tree"
n=0
while [ $n -lt 70 ]; do
	printf 'if __name__ == "__main__":\n    print(%d)\n' $n >"$R3/tests/test_$n.py"
	n=$((n + 1))
done
cat >"$R3/work/deep/tree/zz_train.py" <<'PY'
import torch
model = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    loss = model(torch.randn(2, 4)).sum()
    loss.backward()
    opt.step()
PY
commit "$R3" "many tests, one trainer"
run_ecg jobs --repo "$R3" --json
is "$(json "$T/out" "[j['job_type'] for j in d['jobs'] if j['entry'] == 'work/deep/tree/zz_train.py'][0]")" training \
	"71 jobs: the trainer, deep and after the 70 tests in path order, is read (training)"
is "$(json "$T/out" "len([j for j in d['jobs'] if j.get('reason', '').startswith('not read')])")" 7 \
	"  7 tests are not read, with the reason"
grep -q "71 jobs: the 64 that rank first were read.*7 were not, 7 of them tests or tooling" "$T/err"
ok $? "  and stderr says so"

done_testing
