#| expect: RuntimeError
#| devices: cpu
import torch

torch.manual_seed(0)

class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)
        self.factor = 2.0  # a plain Python attribute: Dynamo burns it into the graph and guards it

    def forward(self, x):
        return self.linear(x) * self.factor


print("guard_filter_fn=skip_guard_on_all_nn_modules_unsafe, then model.factor = 3.0:")
model = Scaled()
inp = torch.ones(1, 4)
for label, options in [("default guards", {}),
                       ("nn-module guards skipped", {"guard_filter_fn": torch.compiler.skip_guard_on_all_nn_modules_unsafe})]:
    torch._dynamo.reset()
    model.factor = 2.0
    compiled_model = torch.compile(model, backend="eager", options=options)
    compiled_model(inp)
    model.factor = 3.0
    same = torch.equal(compiled_model(inp), model(inp))
    print(f"  {label}: output matches eager: {same}")


def scale(x, n):
    return x * n


x = torch.ones(2)
print("set_stance(skip_guard_eval_unsafe=True), warmed up with n=2 only:")
torch._dynamo.reset()
compiled = torch.compile(scale, backend="eager", dynamic=False)
compiled(x, 2)
with torch.compiler.set_stance(skip_guard_eval_unsafe=True):
    print(f"  n=3: got {compiled(x, 3).tolist()}, eager gives {scale(x, 3).tolist()}")

print("warmed up with n=2 and n=3, so the guard on n tells the two entries apart:")
torch._dynamo.reset()
compiled = torch.compile(scale, backend="eager", dynamic=False)
compiled(x, 2)
compiled(x, 3)
with torch.compiler.set_stance(skip_guard_eval_unsafe=True):
    for n in (2, 3, 4):
        print(f"  n={n}: got {compiled(x, n).tolist()}, eager gives {scale(x, n).tolist()}")
