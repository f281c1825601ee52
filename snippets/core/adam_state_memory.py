import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 256))
param_bytes = sum(p.numel() * p.element_size() for p in model.parameters())

for amsgrad in (False, True):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, amsgrad=amsgrad)
    model(torch.randn(4, 256)).sum().backward()
    opt.step()
    state = opt.state[model[0].weight]
    print(f"amsgrad={amsgrad}: state keys", list(state),
          "| step:", state["step"].shape, state["step"].dtype, state["step"].device)
    state_bytes = sum(t.numel() * t.element_size()
                      for s in opt.state.values() for t in s.values())
    print(f"  params {param_bytes:,} bytes, optimizer state {state_bytes:,} bytes,"
          f" ratio {state_bytes / param_bytes:.4f}")
