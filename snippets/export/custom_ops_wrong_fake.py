#| expect: torch.testing._internal.optests.generate_tests.OpCheckError
import torch

torch.manual_seed(0)


@torch.library.custom_op("demo::first_two", mutates_args=())
def first_two(x: torch.Tensor) -> torch.Tensor:
    return x[:2].clone()


@first_two.register_fake
def _(x):
    return torch.empty_like(x)  # wrong: the real output has 2 rows, not len(x)


class Model(torch.nn.Module):
    def forward(self, x):
        return first_two(x)


ep = torch.export.export(Model(), (torch.randn(4),))
node = [n for n in ep.graph.nodes if n.target == torch.ops.demo.first_two.default][0]
print("shape export recorded:", node.meta["val"].shape)
print("shape it really returns:", ep.module()(torch.randn(4)).shape)

# Export trusted the fake. opcheck is the test that catches the lie.
torch.library.opcheck(first_two, (torch.randn(4),))
