# mistake: the variance is taken in one pass as mean(x ** 2) - mean ** 2: exact on paper, but in
# float32 the two terms cancel when the mean is large against the spread
# fails: extremes
import torch


class BatchNorm(torch.nn.Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.weight = torch.nn.Parameter(torch.ones(num_features))
        self.bias = torch.nn.Parameter(torch.zeros(num_features))
        # Buffers: in state_dict and buffers(), converted by .double(), not in parameters().
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))
        self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long))

    def forward(self, x):
        dims = [0, *range(2, x.dim())]  # every dimension but the channels
        shape = [1, -1] + [1] * (x.dim() - 2)  # (C,) as (1, C) or (1, C, 1)
        if self.training:
            n = x.numel() // x.shape[1]  # values per channel: N * L
            if n <= 1:
                raise ValueError(f"expected more than 1 value per channel when training, got"
                                 f" input of shape {tuple(x.shape)}")
            mean = x.mean(dim=dims)
            var = (x * x).mean(dim=dims) - mean * mean
            with torch.no_grad():  # the running update is not part of the graph
                m = self.momentum
                self.running_mean.mul_(1 - m).add_(mean, alpha=m)
                self.running_var.mul_(1 - m).add_(var * (n / (n - 1)), alpha=m)  # unbiased
                self.num_batches_tracked.add_(1)
        else:
            mean, var = self.running_mean, self.running_var
        x_hat = (x - mean.reshape(shape)) / torch.sqrt(var.reshape(shape) + self.eps)
        return x_hat * self.weight.reshape(shape) + self.bias.reshape(shape)
