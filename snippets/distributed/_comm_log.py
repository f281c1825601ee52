"""A dispatch mode that counts collectives by the mesh dimension whose process group ran them."""
from collections import Counter

import torch
from torch.distributed.tensor import DTensor
from torch.utils._python_dispatch import TorchDispatchMode


class MeshCommLog(TorchDispatchMode):
    """Counts (collective, mesh dim) pairs, and the elements each rank passes to all-reduce.

    The same idea as CommDebugMode (torch.distributed.tensor.debug), plus the group. That mode
    also tracks modules with backward hooks, which warn in a backward whose inputs need no grad.
    """

    def __init__(self, mesh):
        super().__init__()
        # Every process group has a unique name; map each mesh dim's group name to the dim's name.
        self.names = {mesh.get_group(d).group_name: d for d in mesh.mesh_dim_names}
        self.calls, self.all_reduce_numel = Counter(), Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if any(issubclass(t, DTensor) for t in types):
            return NotImplemented  # let DTensor run first; its collectives come back here
        if func.namespace in ("c10d", "_c10d_functional"):
            group = None
            for a in args:
                if isinstance(a, str):  # functional collectives pass the group's name
                    group = a
                elif isinstance(a, torch.ScriptObject):  # c10d ops: a ProcessGroup or a ReduceOp
                    try:
                        group = torch._C._distributed_c10d.ProcessGroup.unbox(a).group_name
                    except RuntimeError:  # not a ProcessGroup
                        pass
            if group is not None:
                dim = self.names.get(group, "another group")
                self.calls[f"{func._opname} on {dim}"] += 1
                if func._opname in ("allreduce_", "all_reduce"):
                    tensors = args[0] if isinstance(args[0], list) else [args[0]]
                    self.all_reduce_numel[dim] += sum(t.numel() for t in tensors)
        return func(*args, **(kwargs or {}))

    def summary(self):
        return ", ".join(f"{k} x{n}" for k, n in sorted(self.calls.items()))
