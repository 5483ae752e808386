# Models a library builds from a name (timm's create_model): ecg does not
# read them, but create_model returns the module with its parameters on the
# host, so its .to(device) / .cuda() is the parameters' host-to-device copy.
# Look-alikes: a model built with device= is on the device already, a
# second .to(device) moves nothing, .to(dtype) and .to("cpu") copy nothing
# to the device.
import timm
import torch
import torch.nn as nn
from timm.models import create_model

device = torch.device("cuda")

student = create_model("vit_small_patch16_224", pretrained=False, num_classes=10)
student.to(torch.float32)
student.to("cpu")
student.to(device)
student.to(device)
teacher = timm.create_model("resnet50", num_classes=10, device="cuda")
teacher.to(device)
ema = timm.create_model("vit_small_patch16_224", num_classes=10)
ema.cuda()
teacher.eval()

criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(student.parameters(), lr=1e-3)

for step in range(100):
    images = torch.randn(16, 3, 224, 224, device=device)
    target = torch.randint(0, 10, (16,), device=device)
    loss = criterion(student(images), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
