import torch

cudnn = torch.backends.cudnn
print("cudnn available in this build:", cudnn.is_available())
print("defaults: benchmark", cudnn.benchmark, "| deterministic", cudnn.deterministic)
cudnn.benchmark = True
torch.use_deterministic_algorithms(True)
print("after benchmark=True and use_deterministic_algorithms(True):")
print("  benchmark", cudnn.benchmark, "| deterministic", cudnn.deterministic,
      "| deterministic algorithms", torch.are_deterministic_algorithms_enabled())
