"""A transformers Trainer job that resumes when an earlier run left
checkpoints: the directory listing is made at run time (the tree does not
hold out/), so both branches are read.  trainer.train(resume_from_checkpoint=
True) is a run after an earlier one; the fresh run's trainer.train() on the
other branch is the job's step.  A call whose resume argument is None is a
fresh run's too (the evaluation trainer below is never the step: it comes
after)."""
import pathlib

import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments


def main():
    parser = transformers.HfArgumentParser(TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    data = [tokenizer(t, truncation=True, max_length=64) for t in ["hello world", "a b c"]]
    trainer = Trainer(model=model, args=training_args, train_dataset=data, tokenizer=tokenizer)
    if list(pathlib.Path(training_args.output_dir).glob("checkpoint-*")):
        trainer.train(resume_from_checkpoint=True)
    else:
        trainer.train()
    trainer.save_state()


if __name__ == "__main__":
    main()
