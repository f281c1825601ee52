import torch


class Chatty(torch.nn.Module):
    def forward(self, x):
        print("  forward sees:", x)
        print("  forward sees x.sum().item():", x.sum().item())
        return x + 1


x = torch.ones(2)

print("export() with the default strict=False:")
ep = torch.export.export(Chatty(), (x,))
print("export succeeded; ops in the graph:",
      [str(n.target) for n in ep.graph.nodes if n.op == "call_function"])

print("running the exported program:")
print("  result:", ep.module()(x))  # nothing is printed from inside forward

print("export(strict=True):")
ep_strict = torch.export.export(Chatty(), (x,), strict=True)
print("export succeeded; ops in the graph:",
      [str(n.target) for n in ep_strict.graph.nodes if n.op == "call_function"])
