"""A LoRA job: peft's get_peft_model returns a PeftModel around the model
it is given (the adapters injected into that model in place), whose
forward runs it.  The model the Trainer trains is found through it, as
through a compiler or a parallel wrapper: the job's step is the
trainer.train() call.  The adapters' layers are not read."""
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def main():
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    config = LoraConfig(r=8, lora_alpha=16, target_modules=["c_attn"], task_type="CAUSAL_LM")
    model = get_peft_model(model, config)
    model.print_trainable_parameters()
    args = TrainingArguments(output_dir="out")
    trainer = Trainer(model=model, args=args, train_dataset=[])
    trainer.train()


if __name__ == "__main__":
    main()
