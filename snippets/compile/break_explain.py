import torch


def f(x):
    x = torch.sin(x)
    print("side effect")        # Dynamo cannot put print() in a graph
    x = torch.cos(x)
    if torch.sum(x) > 0:        # a Python branch on a tensor's value
        x = x + 1
    return x * 2


torch.manual_seed(0)
# explain() compiles f with a graph-collecting backend and reports what it saw.
report = torch._dynamo.explain(f)(torch.randn(4))
print("graph_count:", report.graph_count)
print("graph_break_count:", report.graph_break_count)
for i, reason in enumerate(report.break_reasons, 1):
    frame = reason.user_stack[-1]
    print(f"break {i}: line {frame.lineno} in {frame.name}: {reason.reason.splitlines()[0]}")
for i, ops in enumerate(report.ops_per_graph, 1):
    print(f"graph {i} ops:", [getattr(op, "__name__", str(op)) for op in ops])


def g(x):
    print("side effect before any tensor op")  # a break with no graph before it
    return torch.sin(x)


report = torch._dynamo.explain(g)(torch.randn(4))
print("g: graph_count:", report.graph_count, "graph_break_count:", report.graph_break_count)
