import bisect

import torch
import torch._inductor.config as inductor_config
from torch._inductor import list_mode_options
from torch._inductor.cudagraph_trees import is_cudagraph_capture_sizes

# which compile modes turn CUDA graphs on, and the defaults that govern dynamic shapes
print("reduce-overhead sets:", list_mode_options("reduce-overhead"))
print("max-autotune sets:", list_mode_options("max-autotune"))
print("default mode sets:", list_mode_options("default"))
t = inductor_config.triton
print("triton.cudagraphs:", t.cudagraphs, "| cudagraph_trees:", t.cudagraph_trees)
print("cudagraph_skip_dynamic_graphs:", t.cudagraph_skip_dynamic_graphs,
      "| cudagraph_capture_sizes:", t.cudagraph_capture_sizes,
      "| cudagraph_dynamic_shape_warn_limit:", t.cudagraph_dynamic_shape_warn_limit)

# cudagraph trees record one graph per distinct size key unless capture sizes restrict it
with inductor_config.patch({"triton.cudagraph_capture_sizes": (1, 2, 4, 8)}):
    print("captured with capture_sizes (1, 2, 4, 8):",
          {n: is_cudagraph_capture_sizes(n) for n in (1, 3, 4, 5, 8)})

# what a server does instead: pad each batch up to the next capture size
capture_sizes = [1, 2, 4, 8, 16, 32]
batches = [3, 5, 6, 7, 9, 12, 17, 20, 31, 32]
padded = [capture_sizes[bisect.bisect_left(capture_sizes, b)] for b in batches]
print("batch sizes:", batches, "->", len(set(batches)), "graphs without padding")
print("padded to:  ", padded, "->", len(set(padded)), "graphs with padding")
print(f"wasted rows: {sum(padded) - sum(batches)} of {sum(padded)}")
