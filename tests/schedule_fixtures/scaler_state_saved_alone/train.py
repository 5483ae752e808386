# torch.save of a GradScaler's state dict saves the Python numbers its
# state_dict() read to the host (that read is the sync): the save itself
# copies nothing off the device.
import torch


def main():
    model = torch.nn.Linear(4, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cuda")
    for step in range(10):
        x = torch.randn(2, 4, device="cuda")
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(x).sum()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad()
    state = scaler.state_dict()
    torch.save(state, "scaler.pt")


main()
