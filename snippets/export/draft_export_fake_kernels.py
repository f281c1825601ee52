import logging
import warnings

import torch

torch.manual_seed(0)

logging.getLogger("torch").setLevel(logging.CRITICAL)  # we print the report ourselves
warnings.simplefilter("ignore", ResourceWarning)  # draft_export leaves its trace log open


@torch.library.custom_op("demo::twice", mutates_args=())
def twice(x: torch.Tensor) -> torch.Tensor:
    return x * 2  # no fake registered


@torch.library.custom_op("demo::first_two", mutates_args=())
def first_two(x: torch.Tensor) -> torch.Tensor:
    return x[:2].clone()


@first_two.register_fake
def _(x):
    return torch.empty_like(x)  # wrong shape


class Model(torch.nn.Module):
    def forward(self, x):
        return first_two(twice(x))


ep = torch.export.draft_export(Model(), (torch.randn(4),))
print("successful:", ep._report.successful())
for f in ep._report.failures:
    line = f"{f.failure_type} {f.data['op']}"
    if "reason" in f.data:
        line += ": " + f.data["reason"].strip()
    print(line)
print("ops profiled from real runs:", sorted(ep._report.op_profiles))
for n in ep.graph.nodes:
    if str(n.target).startswith("demo."):
        print("graph records", n.target, "->", n.meta["val"].shape)
print("output:", ep.module()(torch.randn(4)).shape)
