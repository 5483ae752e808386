# accelerate launch --use_deepspeed --deepspeed_config_file ds.conf (ZeRO-3,
# "auto" bf16 filled from --mixed_precision bf16): prepare hands the model
# and the optimizer to deepspeed.initialize.  from_pretrained runs after the
# Accelerator, under zero.Init (accelerate's zero3_init_flag defaults on for
# stage 3): no move, no broadcast at prepare.  accelerator.backward is the
# engine's backward every micro-batch and its step on the micro-step that
# ends a step (GradientAccumulationPlugin(num_steps=2)); the optimizer
# wrapper's step does nothing.
import torch
from accelerate import Accelerator
from accelerate.utils import GradientAccumulationPlugin
from transformers import AutoModelForCausalLM


def main():
    accelerator = Accelerator(gradient_accumulation_plugin=GradientAccumulationPlugin(num_steps=2))
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    data = [{"input_ids": torch.ones(16, dtype=torch.long), "labels": torch.ones(16, dtype=torch.long)}
            for _ in range(64)]
    loader = torch.utils.data.DataLoader(data, batch_size=4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    total = torch.tensor(0.0, device=accelerator.device)
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            total += loss.detach()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.sync_gradients:
            print(accelerator.gather(total).sum().item())
    accelerator.wait_for_everyone()


if __name__ == "__main__":
    main()
