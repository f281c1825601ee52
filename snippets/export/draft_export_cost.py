#| devices: cpu
import logging
import time
import warnings

import torch

torch.manual_seed(0)

logging.getLogger("torch").setLevel(logging.CRITICAL)  # we print what we need ourselves
warnings.simplefilter("ignore", ResourceWarning)  # draft_export leaves its trace log open

calls = []


@torch.library.custom_op("demo::counted", mutates_args=())
def counted(x: torch.Tensor) -> torch.Tensor:
    calls.append(tuple(x.shape))  # the real kernel records each call
    return x * 2


@counted.register_fake
def _(x):
    return torch.empty_like(x)


class Heavy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(*[torch.nn.Linear(1024, 1024) for _ in range(8)])

    def forward(self, x):
        return counted(self.layers(x))


model, x = Heavy(), torch.randn(2048, 1024)
torch.export.export(model, (x,))  # warm-up, so the timings below compare tracing only


def timed(fn):
    calls.clear()
    start = time.perf_counter()
    fn(model, (x,))
    return time.perf_counter() - start, len(calls)


t_export, real_export = timed(torch.export.export)
t_draft, real_draft = timed(torch.export.draft_export)
print("real kernel calls: export", real_export, "| draft_export", real_draft)
print("draft_export took more than 5x as long as export:", t_draft > 5 * t_export)
