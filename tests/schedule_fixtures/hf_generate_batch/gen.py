"""A batch generation job on a transformers model: the model is a
library's (from_pretrained, the library not read), and the job calls its
generate() once per prompt.  generate runs the model's forward under
no_grad, token by token, inside the library: the job's step is its loop
over the prompts, and what it does around each call (the prompt's copy to
the device) runs once a step.  The results are kept on the device and
saved once at the end."""
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

PROMPTS = ["The capital of France is", "Once upon a time", "def fibonacci(n):", "import torch"]


def main():
    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    model = AutoModelForCausalLM.from_pretrained("gpt2").cuda()
    model.eval()
    results = []
    for prompt in PROMPTS:
        input_ids = tokenizer([prompt]).input_ids
        output_ids = model.generate(torch.as_tensor(input_ids).cuda(), max_new_tokens=32, do_sample=False)
        results.append(output_ids[0])
    torch.save(results, "generated.pt")


if __name__ == "__main__":
    main()
