# A GradScaler built (enabled) but never used: the job trains in full
# precision (use_amp False), so scale() never runs and the scaler's
# scale tensor is never made on the device (torch's lazy init).  Its
# state_dict() then returns _init_scale and _init_growth_tracker, Python
# numbers: no read of the device.  The model's state saved is.
import torch


def main(use_amp=False):
    model = torch.nn.Linear(4, 1).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.cuda.amp.GradScaler()
    for step in range(10):
        x = torch.randn(2, 4, device="cuda")
        loss = model(x).sum()
        if use_amp:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            opt.step()
        opt.zero_grad()
    ckpt = {"model": model.state_dict(), "scaler": scaler.state_dict()}
    torch.save(ckpt, "ckpt.pt")


main()
