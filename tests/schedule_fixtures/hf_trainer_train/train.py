"""A transformers Trainer job: Trainer.train() runs the training loop in
the library, calling the model with each collated batch, then backward
and the optimizer step.  The job's step is the train() call; the model is
the one given to the Trainer.  The Trainer is no module (its class name
is not a model's), so trainer.train() is not nn.Module.train()."""
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments


def main():
    parser = transformers.HfArgumentParser(TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    data = [tokenizer(t, truncation=True, max_length=64) for t in ["hello world", "a b c"]]
    trainer = Trainer(model=model, args=training_args, train_dataset=data, tokenizer=tokenizer)
    trainer.train()
    trainer.save_state()


if __name__ == "__main__":
    main()
