#| devices: cpu
import torch
import torch._inductor.config as inductor_config
from torch._dynamo.utils import counters
from torch._inductor.cudagraph_utils import check_multiple_devices_or_any_cpu_nodes, log_cudagraph_skip_and_bump_counter

# A graph node placed on the CPU, as Inductor's device-to-node map would hold it.
gm = torch.fx.symbolic_trace(lambda x: torch.sin(x))
cpu_node = next(n for n in gm.graph.nodes if n.op == "call_function")

print("graph_partition default:", inductor_config.graph_partition)
for partition in (True, False):
    with inductor_config.patch({"graph_partition": partition, "triton.cudagraphs": True}):
        devices = {torch.device("cuda"): cpu_node, torch.device("cpu"): cpu_node}
        reason = check_multiple_devices_or_any_cpu_nodes(devices)
        print(f"graph_partition={partition}: skip reason for a CUDA graph with a CPU op -> {reason}")

# Where a skip is reported: the "cudagraphs" log artifact, at WARNING, so it prints by default
# (on stderr, without TORCH_LOGS); perf_hints is not involved.
log_cudagraph_skip_and_bump_counter("skipping cudagraphs due to <a reason>")
print("cudagraph_skips:", counters["inductor"]["cudagraph_skips"])
