#| devices: cuda
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.GELU(),
                            torch.nn.Linear(64, 8)).cuda().eval()
static_in = torch.randn(4, 64, device="cuda")        # the graph reads this memory, always

# Warm up on a side stream before capture (lazy init, cuBLAS workspaces).
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s), torch.no_grad():
    for _ in range(3):
        model(static_in)
torch.cuda.current_stream().wait_stream(s)

g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g), torch.no_grad():
    static_out = model(static_in)                   # captured into g

new = torch.randn(4, 64, device="cuda")
static_in.copy_(new)                                # new data goes INTO the static buffer
g.replay()                                          # one call replays every captured kernel
with torch.no_grad():
    print("replay matches eager:", torch.allclose(static_out, model(new)))

static_in = torch.randn(4, 64, device="cuda")       # rebinding the name: the graph never sees it
g.replay()
with torch.no_grad():
    print("after rebinding, output still from old data:", torch.allclose(static_out, model(new)))
