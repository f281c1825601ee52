import torch

torch.manual_seed(0)


def run(skip_hook_guards):
    torch._dynamo.reset()
    torch._dynamo.config.skip_nnmodule_hook_guards = skip_hook_guards
    graphs = []

    def backend(gm, example_inputs):  # Dynamo only: count the graphs it captures
        graphs.append(gm)
        return gm.forward

    lin = torch.nn.Linear(3, 2)
    compiled = torch.compile(lin, backend=backend)
    x = torch.randn(4, 3)
    compiled(x)  # first call: compiled while lin has no hooks
    lin.register_forward_hook(lambda m, args, out: out + 100)  # replaces the output
    print(f"skip_nnmodule_hook_guards={skip_hook_guards}")
    print("  eager lin(x) - lin.forward(x):   ", (lin(x) - lin.forward(x))[0, 0].item())
    for i in (2, 3):
        diff = (compiled(x) - lin.forward(x))[0, 0].item()
        print(f"  call {i}: compiled(x) - lin.forward(x):", diff, "| graphs so far:", len(graphs))


print("default:", torch._dynamo.config.skip_nnmodule_hook_guards)
run(True)
run(False)
