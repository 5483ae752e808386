#!/bin/bash
# 8 GPUs on one node
set -euo pipefail
torchrun --nproc_per_node=8 --standalone \
    -m acme_pkg --steps 500  # the long run
python tools/plot_loss.py logs/ > /dev/null
