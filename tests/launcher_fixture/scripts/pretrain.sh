#!/bin/bash
# A Megatron-style launcher: arrays, defaults, arithmetic, continuations.
GPUS_PER_NODE=${GPUS_PER_NODE:-4}
NUM_NODES=2
WORLD=$(($GPUS_PER_NODE*$NUM_NODES))
CHECKPOINT_PATH=${CKPT:-/tmp/ckpt}

DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NUM_NODES   # two machines
)
MODEL_ARGS=(
    --n-layer 6
    --d-model 32
)

torchrun ${DISTRIBUTED_ARGS[@]} train.py \
    ${MODEL_ARGS[@]} \
    --save $SAVE_DIR \
    "$@"
