#!/bin/sh
# With pipeline parallelism a rank builds its stage's share of the blocks:
# the repeat count is the rank's (num_layers // P) and, when the code pins
# that every stage builds as many, "whole_model" beside it gives the whole
# model's count (records.md, `parallel`: "repeat gains whole_model").  The
# share is `n // P` with P read from a name of the pipeline degree and
# n % P == 0; the stage's layers are `[spec] * share` or `L[o : o + share]`
# of the whole list, built by a comprehension into a ModuleList.  Anything
# else -- no pipeline, P not dividing n, a share changed on one stage, a
# rank pinned by the environment --
# states no whole count.  (issue 16)
. "$top_srcdir/tests/lib.sh"

R="$T/pp"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import argparse
import os
import torch
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--num-layers", type=int, default=4)
p.add_argument("--pipeline-model-parallel-size", type=int, default=1)
p.add_argument("--style", default="repeat")
args = p.parse_args()


def initialize_model_parallel(tensor_model_parallel_size=1, pipeline_model_parallel_size=1):
    pass


def layers_per_stage(num_layers, pipeline_model_parallel_size):
    return num_layers // pipeline_model_parallel_size


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x)


class Stage(nn.Module):
    def __init__(self, num_layers, pipeline_model_parallel_size, style):
        super().__init__()
        n = layers_per_stage(num_layers, pipeline_model_parallel_size)
        if style == "first":
            if int(os.environ["RANK"]) == 0:
                n -= 1
        if style == "slice":
            every = [Block for _ in range(num_layers)]
            offset = 0
            specs = every[offset : offset + n]
        else:
            specs = [Block] * n
        self.layers = nn.ModuleList([spec() for i, spec in enumerate(specs)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


initialize_model_parallel(pipeline_model_parallel_size=args.pipeline_model_parallel_size)
model = Stage(args.num_layers, args.pipeline_model_parallel_size, args.style)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.zeros(2, 8)).sum()
    loss.backward()
    opt.step()
PY
commit "$R" "a pipeline stage's layers"

rep() {  # the repeat of layers.*: count and whole_model
	json "$R/records/computation_graph.json" "[(m['repeat'].get('count'), m['repeat'].get('whole_model')) for m in d['modules'] if m['id'] == 'layers.*'][0]"
}

run_ecg extract --repo "$R" --entry train.py -q -- --num-layers 12 --pipeline-model-parallel-size 4
is "$rc" 0 "[spec] * (12 // 4): extract"
is "$(rep)" "(3, 12)" "  the rank's 3 blocks, the whole model's 12 beside them"
"$TEST_PYTHON" "$top_srcdir/tests/schema_check.py" "$top_srcdir/schemas" "$R/records" >"$T/schema.out" 2>&1
ok $? "  the records validate against schemas/"

run_ecg extract --repo "$R" --entry train.py -q -- --num-layers 12 --pipeline-model-parallel-size 4 --style slice
is "$rc" 0 "every[o : o + 12 // 4]: extract"
is "$(rep)" "(3, 12)" "  a slice of the whole list by the share: 3 of 12"

run_ecg extract --repo "$R" --entry train.py -q -- --num-layers 12
is "$(rep)" "(12, None)" "no pipeline (P 1): the count is the whole model's, no whole_model"

run_ecg extract --repo "$R" --entry train.py -q -- --num-layers 12 --pipeline-model-parallel-size 5
is "$(rep)" "(2, None)" "P 5 does not divide 12: stages differ, no whole count"

run_ecg extract --repo "$R" --entry train.py -q --env RANK=3 -- --num-layers 12 --pipeline-model-parallel-size 4 --style first
is "$(json "$R/records/computation_graph.json" "[m['repeat'].get('whole_model') for m in d['modules'] if m['id'] == 'layers.*'][0]")" \
	"None" "RANK pinned to 3 (another stage's share may differ: rank 0 builds one fewer): no whole count"

run_ecg extract --repo "$R" --entry train.py -q --env RANK -- --num-layers 12 --pipeline-model-parallel-size 4 --style first
is "$(json "$R/records/computation_graph.json" "[m['id'] for m in d['modules'] if m.get('repeat', {}).get('whole_model')]")" \
	"[]" "RANK not pinned, a share changed on the first stage: no whole count"

done_testing
