# Text embeddings for a generator: a T5 encoder loaded with device_map
# naming the chosen device for each of its parts (its weights read on the
# host and copied there on load), a CLIP text model placed on "cuda:0" and
# an Auto class's model on GPU 0 the same way, and two loads that name no
# device: accelerate's planner ("auto") and the host.
import torch
import torch.nn as nn
from transformers import AutoModelForCausalLM, AutoTokenizer, CLIPTextModel, T5EncoderModel


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 16)

    def forward(self, h):
        return self.fc(h).softmax(-1)


def main():
    device = torch.device("cuda")
    tok = AutoTokenizer.from_pretrained("t5-small")
    t5 = T5EncoderModel.from_pretrained("t5-small", device_map={"shared": device, "encoder": device})
    clip = CLIPTextModel.from_pretrained("openai/clip-vit-base-patch32", device_map="cuda:0")
    planned = T5EncoderModel.from_pretrained("t5-small", device_map="auto")
    host = T5EncoderModel.from_pretrained("t5-small", device_map="cpu")
    t5.to(device)
    lm = AutoModelForCausalLM.from_pretrained("gpt2", device_map=0)
    lm.to(device)
    head = Head().to(device)
    with torch.no_grad():
        for i in range(8):
            ids = torch.randint(0, 32000, (4, 32), device=device)
            h = t5(input_ids=ids)["last_hidden_state"]
            c = clip(input_ids=ids)[0]
            p = head(h[:, 0] + c[:, 0])
            print(p.max().item())
    print(planned, host, tok, lm)


if __name__ == "__main__":
    main()
