import timm
import torch
import torch.nn.functional as F

model = timm.create_model("resnet50", pretrained=False, num_classes=10)
model = model.cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(1000):
    x = torch.randn(32, 3, 224, 224, device="cuda")
    y = torch.randint(0, 10, (32,), device="cuda")
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    if step % 100 == 0:
        print(loss.item())
