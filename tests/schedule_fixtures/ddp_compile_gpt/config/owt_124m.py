# GPT-2 small on OpenWebText, one node of 8 GPUs:
# 8 ranks x 12 sequences x 5 micro-steps x 1024 tokens ~ 0.5M tokens per step.
run_name = "owt-124m"
data_dir = "data/openwebtext"
batch_size = 12
grad_accum = 5
max_steps = 600000
warmup_steps = 2000
lr = 6e-4
min_lr = 6e-5
log_interval = 20
eval_interval = 2000
save_interval = 10000
