# An autograd Function's forward run by an evaluation every N steps (a
# matrix square root for an FID-like score) is the evaluation's work:
# its sync (linalg.eigh reads its info on the host) has the evaluation's
# phase, not the training forward's.
import torch
import torch.nn as nn


class SqrtmEig(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        vals, vecs = torch.linalg.eigh(a)
        ctx.save_for_backward(vals, vecs)
        return vecs @ vals.abs().sqrt().diag_embed() @ vecs.transpose(-2, -1)

    @staticmethod
    def backward(ctx, g):
        return g


@torch.no_grad()
def evaluate(model, data):
    feats = model(data)
    cov = feats.T @ feats
    score = torch.trace(SqrtmEig.apply(cov))
    print(f"score {score.item():g}")


def main():
    model = nn.Linear(16, 16).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.randn(64, 16, device="cuda")
    for step in range(10000):
        x = torch.randn(8, 16, device="cuda")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 1000 == 0:
            evaluate(model, data)


if __name__ == "__main__":
    main()
