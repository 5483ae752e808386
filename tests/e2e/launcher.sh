#!/bin/sh
# Shell launchers and Slurm scripts (tests/launcher_fixture): `ecg jobs`
# lists each launch with its expanded arguments and the processes it
# starts; `ecg extract --launcher FILE[:LINE]` reads the job as that line
# starts it (arrays, ${VAR:-default}, $((arithmetic)), continuations, a
# branch the launcher's values decide), and `refresh` reads it again.
. "$top_srcdir/tests/lib.sh"

R="$T/repo"
mkrepo "$R"
cp -R "$top_srcdir/tests/launcher_fixture/." "$R/"
chmod -R u+w "$R"
commit "$R" "launcher fixture"

run_ecg jobs --repo "$R" --json
is "$rc" 0 "jobs --json exits 0"
cp "$T/out" "$T/jobs.json"
J="$T/jobs.json"
L="[f for j in d['jobs'] for f in j['found_by'] if f['how'] == 'launcher']"
is "$(json "$J" "[(f['where'], f['launcher'], f['world_size']) for f in $L]")" \
	"[('scripts/job.slurm:9', 'python', 32), ('scripts/pretrain.sh:17', 'torchrun', 8)]" \
	"two launches: srun python under #SBATCH 4 nodes x 8 tasks (32), torchrun 4 x 2 (8); the debug branch MODE decides false starts nothing"
is "$(json "$J" "[f['command'] for f in $L if f['launcher'] == 'torchrun'][0]")" \
	"['torchrun', '--nproc_per_node', '4', '--nnodes', '2', 'train.py', '--n-layer', '6', '--d-model', '32', '--save', '\$SAVE_DIR']" \
	"  the command with its arrays and defaults expanded, comments and continuations gone"
is "$(json "$J" "[(f.get('not_literal'), f['world_size_from']) for f in $L if f['launcher'] == 'torchrun'][0]")" \
	"(['\$SAVE_DIR'], 'processes per node x nodes')" "  what the launcher does not pin down, and where the size comes from"

G="$T/o/computation_graph.json"
rep() { json "$G" "[m['repeat']['count'] for m in d['modules'] if m['id'] == 'blocks.*'][0]"; }

run_ecg extract --repo "$R" --launcher scripts/pretrain.sh --out "$T/o"
is "$rc" 0 "extract --launcher scripts/pretrain.sh exits 0"
is "$(rep)" 6 "  the block count is the launcher's --n-layer 6 (the default is 2)"
is "$(json "$G" "(d['invocation']['entry'], d['invocation']['launcher']['line'], d['invocation']['launcher']['world_size'])")" \
	"('train.py', 17, 8)" "  invocation: the entry, the launch's line and its 8 processes"
grep -q "SAVE_DIR' is not pinned down" "$T/err"
ok $? "  a warning names the word the launcher does not pin down"

run_ecg extract --repo "$R" --launcher scripts/pretrain.sh --out "$T/o" -q -- --n-layer 3
is "$(rep)" 3 "  the launcher's own arguments fill \"\$@\": --n-layer 3"

run_ecg extract --repo "$R" --launcher scripts/job.slurm --out "$T/o" -q
is "$(rep)" 12 "the slurm script's only live launch: --n-layer 12"
is "$(json "$G" "d['invocation']['launcher']['world_size']")" 32 "  32 processes (#SBATCH --nodes 4 x --ntasks-per-node 8)"

run_ecg extract --repo "$R" --launcher scripts/job.slurm:3 --out "$T/o2" -q
is "$rc" 3 "a line that starts nothing: exit 3"
grep -q "starts no job on line 3; its launches: scripts/job.slurm:9" "$T/err"
ok $? "  and the message lists the launches there are"

run_ecg extract --repo "$R" --launcher scripts/nope.sh --out "$T/o2" -q
is "$rc" 3 "a launcher that is not in the commit: exit 3"

run_ecg extract --repo "$R" --launcher scripts/job.slurm --entry train.py --out "$T/o2" -q
is "$rc" 2 "--entry with --launcher: usage error (exit 2)"

# refresh reads the launcher again at the new commit
run_ecg extract --repo "$R" --launcher scripts/pretrain.sh --out "$R/records" -q
sed 's/--n-layer 6/--n-layer 8/' "$R/scripts/pretrain.sh" >"$T/p.sh" && cp "$T/p.sh" "$R/scripts/pretrain.sh"
commit "$R" "eight layers"
run_ecg refresh --repo "$R" -q
is "$rc" 0 "refresh after the launcher changed exits 0"
G="$R/records/computation_graph.json"
is "$(rep)" 8 "  the records follow the launcher: 8 blocks"

# torchrun sets WORLD_SIZE, RANK and LOCAL_RANK in each process it starts:
# --launcher reads the job with those (any other variable may be set)
R2="$T/repo2"
mkrepo "$R2"
mkdir -p "$R2/scripts"
cat >"$R2/scripts/run.sh" <<'SH'
#!/bin/bash
torchrun --nproc_per_node 4 mesh_train.py
SH
cat >"$R2/mesh_train.py" <<'PY'
import os
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

dist.init_process_group(backend="nccl")
world = int(os.environ["WORLD_SIZE"])
mesh = init_device_mesh("cuda", (world // 2, 2), mesh_dim_names=("dp", "tp"))
debug = os.environ.get("DEBUG_SYNC", "0") == "1"
model = nn.Linear(8, 8).to("cuda")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(4, 8, device="cuda")).sum()
    loss.backward()
    opt.step()
    if debug:
        print(loss.item())
PY
commit "$R2" "mesh job"
S="$T/o3/execution_schedule.json"
run_ecg extract --repo "$R2" --launcher scripts/run.sh --out "$T/o3" -q
is "$rc" 0 "extract --launcher of a torchrun line that starts 4 processes exits 0"
is "$(json "$S" "d['invocation']['launcher']['sets_env']")" "['WORLD_SIZE=4', 'RANK', 'LOCAL_RANK']" \
	"  the variables torchrun sets are recorded"
is "$(json "$S" "[(k, d['parallel'][k]['size']) for k in ('data', 'tensor')]")" "[('data', 2), ('tensor', 2)]" \
	"  WORLD_SIZE=4 from the launcher: the mesh (4 // 2, 2) gives data 2, tensor 2"
is "$(json "$S" "[r['condition'] is not None for r in d['host_device'] if r['kind'] == 'sync']")" "[True]" \
	"  a variable torchrun does not set (DEBUG_SYNC) is not taken as unset: the .item() keeps its condition"

done_testing
