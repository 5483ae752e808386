"""A transformers Trainer run by torchrun on two processes, its arguments
from the command line through HfArgumentParser (a repository dataclass
on transformers.TrainingArguments).  Each step the library's loop does
more than the model's call, backward and optimizer step: it moves each
micro-batch to the GPU (pin_memory from dataloader_pin_memory, default
True), reads the loss's isnan/isinf on the host after each micro-batch
(logging_nan_inf_filter, default True), DDP-wraps the model (several
processes, neither fsdp nor deepspeed) whose gradients are all-reduced on
the micro-batch that ends a step (accumulate() skips the others), and
every logging_steps steps gathers the loss across the processes and reads
it with .item().  All stated at the trainer.train() call."""
from dataclasses import dataclass

import transformers
from transformers import AutoModelForCausalLM, Trainer


@dataclass
class TrainingArguments(transformers.TrainingArguments):
    model_max_length: int = 512


def main():
    parser = transformers.HfArgumentParser(TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    trainer = Trainer(model=model, args=training_args, train_dataset=[])
    trainer.train()


if __name__ == "__main__":
    main()
