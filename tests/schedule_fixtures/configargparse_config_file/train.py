import configargparse
import torch
import torch.nn as nn


def config_parser():
    parser = configargparse.ArgumentParser()
    parser.add_argument('--config', is_config_file=True, help='config file path')
    parser.add_argument('--expname', type=str, help='experiment name')
    parser.add_argument('--dataset_type', type=str, default='other')
    parser.add_argument('--no_batching', action='store_true')
    parser.add_argument('--use_amp', action='store_true')
    parser.add_argument('--i_weights', type=int, default=10000)
    parser.add_argument('--i_print', type=int, default=100)
    parser.add_argument('--milestones', type=int, nargs='+', default=[1000])
    return parser


args = config_parser().parse_args()
device = 'cuda'
model = nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.cuda.amp.GradScaler(enabled=args.use_amp)
data = torch.randn(1000, 16)
data_on_device = None
if not args.no_batching:
    data_on_device = data.to(device)

for i in range(1, 20001):
    if args.no_batching:
        x = data[i % 1000:i % 1000 + 8].to(device)
    else:
        x = data_on_device[i % 1000:i % 1000 + 8]
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    if args.dataset_type == 'other':
        print(loss.tolist())
    if i % args.i_weights == 0:
        torch.save(model.state_dict(), '%s_%06d.pt' % (args.expname, i))
    if i % args.i_print == 0:
        print(args.expname, loss.item(), len(args.milestones))
