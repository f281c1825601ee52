#| devices: cpu
#| expect: RuntimeError
import torch


def branch_on_count(x):
    n = (x > 0).sum().item()
    if n > 2:  # Python needs a bool from u0, which has no value while tracing
        return x * 2
    return x


def check_then_branch(x):
    n = (x > 0).sum().item()
    torch._check(n > 2)  # state the fact: the tracer may assume it, and it is asserted at run time
    if n > 2:
        return x * 2
    return x


torch._dynamo.config.capture_scalar_outputs = True
x = torch.tensor([1.0, 2.0, 3.0, -1.0])

r = torch._dynamo.explain(branch_on_count)(x)
reason = r.break_reasons[0].reason.splitlines()
print(f"branch_on_count: graphs={r.graph_count}, break: {reason[0]}")
print("  ", reason[1].split(" (unhinted")[0])

torch._dynamo.reset()
try:
    torch.compile(branch_on_count, backend="eager", fullgraph=True)(x)
except torch._dynamo.exc.UserError as e:
    print("fullgraph=True:", type(e).__name__, "-", str(e).splitlines()[0])

torch._dynamo.reset()
r = torch._dynamo.explain(check_then_branch)(x)
print(f"check_then_branch: graphs={r.graph_count}, breaks={r.graph_break_count}")
for node in r.graphs[0].graph.nodes:
    if node.op == "call_function":
        target = getattr(node.target, "__name__", str(node.target))
        print(f"  {node.name:24} {target:22} {node.meta.get('example_value')}")

torch._dynamo.reset()
compiled = torch.compile(check_then_branch, backend="eager")
print("  3 positives:", compiled(x))
compiled(torch.tensor([1.0, -2.0, -3.0, -1.0]))  # 1 positive: the check fails at run time
