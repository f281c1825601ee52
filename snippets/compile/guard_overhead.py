#| devices: cpu
import timeit

import torch
from torch._dynamo.eval_frame import _debug_get_cache_entry_list

torch.manual_seed(0)

model = torch.nn.Sequential(*[m for _ in range(16) for m in (torch.nn.Linear(4, 4), torch.nn.ReLU())])
x = torch.randn(2, 4)


def step(x):
    return model(x)


def tiny(x):
    return x + 1


def best_us(fn, number=5000):
    """Best of 5 repeats, in microseconds per call: the machine is shared and noisy."""
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def counting(filter_fn):
    """Wrap a guard filter so it reports how many guards it was offered and how many it kept."""
    def wrapped(entries):
        keep = filter_fn(entries) if filter_fn else [True] * len(entries)
        counts.append((len(entries), sum(keep)))
        return keep
    return wrapped


filters = {
    "no filter (default)": None,
    "skip_guard_on_inbuilt_nn_modules_unsafe": torch.compiler.skip_guard_on_inbuilt_nn_modules_unsafe,
    "skip_guard_on_all_nn_modules_unsafe": torch.compiler.skip_guard_on_all_nn_modules_unsafe,
    "keep_tensor_guards_unsafe": torch.compiler.keep_tensor_guards_unsafe,
}
check_us = {}
print("16 x (Linear, ReLU), called through a function, backend='eager':")
for name, filter_fn in filters.items():
    torch._dynamo.reset()
    counts = []
    compiled = torch.compile(step, backend="eager", options={"guard_filter_fn": counting(filter_fn)})
    compiled(x)
    guard_manager = _debug_get_cache_entry_list(step.__code__)[0].guard_manager
    f_locals = {"x": x}
    check_us[name] = best_us(lambda: guard_manager.check(f_locals))
    offered, kept = counts[0]
    print(f"  {name}: {kept} of {offered} guards kept")

full = check_us["no filter (default)"]
for name in ("skip_guard_on_all_nn_modules_unsafe", "keep_tensor_guards_unsafe"):
    t = check_us[name]
    print(f"  guard check with {name} at least 2x faster than the full check: {full / t >= 2}")

torch._dynamo.reset()
counts = []
compiled_tiny = torch.compile(tiny, backend="eager", options={"guard_filter_fn": counting(None)})
compiled_tiny(x)
print(f"tiny function x + 1: {counts[0][1]} guards")
eager_us = best_us(lambda: tiny(x))
compiled_us = best_us(lambda: compiled_tiny(x))
print(f"  compiled call slower than the eager call: {compiled_us > eager_us}")
