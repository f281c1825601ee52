#| devices: cpu
import torch
from functorch.compile import (aot_function, default_partition, make_boxed_func,
                               min_cut_rematerialization_partition)

torch.manual_seed(0)


def ops(gm):
    return [str(n.target).replace("aten.", "").replace(".default", "")
            for n in gm.graph.nodes if n.op == "call_function"]


def fn(x, w):
    h = x @ w  # a matmul: the partitioner will not recompute it
    return (h.sin() * 2).cos().sum()  # cheap pointwise ops: candidates for recomputation


x = torch.randn(8, 16, requires_grad=True)
w = torch.randn(16, 16, requires_grad=True)

for name, partition in (("default_partition", default_partition),
                        ("min_cut_rematerialization_partition", min_cut_rematerialization_partition)):
    graphs = {}

    def compiler(kind):
        def compile_graph(gm, example_inputs):
            graphs[kind] = gm
            return make_boxed_func(gm.forward)
        return compile_graph

    compiled = aot_function(fn, fw_compiler=compiler("fw"), bw_compiler=compiler("bw"),
                            partition_fn=partition)
    compiled(x, w).backward()
    saved = graphs["fw"].graph.output_node().args[0][1:]  # output 0 is the loss
    print(name)
    print("  forward ops: ", ops(graphs["fw"]))
    print("  saved:       ", [f"{n.name}{list(n.meta['val'].shape)}" for n in saved])
    print("  backward ops:", ops(graphs["bw"]))
