import functools
from collections import Counter

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

torch.manual_seed(0)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(256, 1024)
        self.fc2 = torch.nn.Linear(1024, 256)

    def forward(self, x):
        return self.fc2(torch.nn.functional.gelu(self.fc1(x)))


blocks = torch.nn.ModuleList(Block() for _ in range(4))
x = torch.randn(64, 256, requires_grad=True)
param_storages = {p.untyped_storage().data_ptr() for p in blocks.parameters()}
held = {}  # storage -> bytes: tensors autograd saved (not parameters) and op outputs the policy kept
decisions = Counter()  # (op, policy) -> count


def pack(t):
    if t.untyped_storage().data_ptr() not in param_storages:
        held[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
    return t


def policy(ctx, op, *args, **kwargs):  # called once per op, in the forward only
    choice = CheckpointPolicy.MUST_SAVE if op is torch.ops.aten.addmm.default else CheckpointPolicy.PREFER_RECOMPUTE
    decisions[(str(op), choice.name)] += 1
    if choice is CheckpointPolicy.MUST_SAVE:
        held[ctx.op_output.untyped_storage().data_ptr()] = ctx.op_output.untyped_storage().nbytes()
    return choice


class OpsRun(TorchDispatchMode):  # counts the ATen ops that really execute
    def __init__(self):
        super().__init__()
        self.ops = Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops[func.overloadpacket.__name__] += 1
        return func(*args, **(kwargs or {}))


def run(title, **kwargs):
    held.clear()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        h = x
        for block in blocks:
            h = checkpoint(block, h, use_reentrant=False, **kwargs)
        loss = h.square().mean()
    with OpsRun() as mode:
        loss.backward()
    rerun = {op: n for op, n in sorted(mode.ops.items()) if op in ("addmm", "gelu")}
    print(f"{title}\n  held for backward: {len(held)} tensors, {sum(held.values()):,} bytes"
          f" | forward ops re-executed in backward: {rerun}")


run("full checkpointing (early_stop=True, the default):")
run("full checkpointing, early_stop=False:", early_stop=False)
run("selective: save addmm outputs, recompute the rest:",
    context_fn=functools.partial(create_selective_checkpoint_contexts, policy))
for (op, choice), n in sorted(decisions.items()):
    print(f"  policy: {op:20} {choice:17} x{n}")


def offload_policy(ctx, op, *args, **kwargs):  # ask for the addmm outputs to be offloaded to CPU
    if op is torch.ops.aten.addmm.default:
        return CheckpointPolicy.MUST_CPU_OFFLOAD
    return CheckpointPolicy.PREFER_RECOMPUTE


run("selective, MUST_CPU_OFFLOAD for addmm (eager):",
    context_fn=functools.partial(create_selective_checkpoint_contexts, offload_policy))
