# Images generated on the GPU, each checked by a Hugging Face pipeline
# built on the GPU: the pipeline moves its model once, and each call copies
# the image's tensors over and the scores back.
import numpy as np
import torch
import torch.nn as nn
from PIL import Image
from transformers import pipeline


class Gen(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 3 * 8 * 8)

    def forward(self, z):
        return self.fc(z).view(-1, 8, 8, 3)


def main():
    classifier = pipeline("image-classification", model="Falconsai/nsfw_image_detection", device="cuda")
    host_classifier = pipeline("image-classification", model="Falconsai/nsfw_image_detection")
    model = Gen().cuda()
    with torch.no_grad():
        for i in range(8):
            x = model(torch.randn(1, 16, device="cuda"))
            img = Image.fromarray((x[0].clamp(0, 1) * 255).byte().cpu().numpy())
            scores = classifier(img)
            score = [s["score"] for s in scores if s["label"] == "nsfw"][0]
            if score < 0.85:
                img.save("out_%d.png" % i)
            print(host_classifier(img))


if __name__ == "__main__":
    main()
