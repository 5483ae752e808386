"""A training loop that solves small linear systems: torch.linalg.solve and
torch.linalg.cholesky of device matrices read the solver's info on the host
(PyTorch documents both as synchronising with the CPU on CUDA inputs);
solve_ex without check_errors does not, and neither does solve of host
matrices."""
import torch
import torch.nn as nn


def precondition(grad, damping):
    n = grad.shape[0]
    gram = grad @ grad.t() + damping * torch.eye(n, device=grad.device)
    chol = torch.linalg.cholesky(gram)
    return torch.cholesky_solve(grad, chol)


def main():
    device = torch.device("cuda")
    model = nn.Linear(16, 16).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    prior = torch.eye(4) * 2.0
    rhs = torch.ones(4, 1)
    host_sol = torch.linalg.solve(prior, rhs)
    for step in range(1000):
        x = torch.randn(8, 16, device=device)
        feats = model(x)
        system = feats.t() @ feats + torch.eye(16, device=device)
        coeff = torch.linalg.solve(system, feats.t())
        fast, info = torch.linalg.solve_ex(system, feats.t())
        loss = (precondition(feats, 0.1) + coeff.t() + fast.t()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(host_sol.sum().item())


if __name__ == "__main__":
    main()
