# mistake: the running statistics are plain tensor attributes, not buffers: the forward works,
# but state_dict() does not hold them and .double() does not convert them
# fails: parameters_and_buffers
import torch


class BatchNorm(torch.nn.Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.weight = torch.nn.Parameter(torch.ones(num_features))
        self.bias = torch.nn.Parameter(torch.zeros(num_features))
        self.running_mean = torch.zeros(num_features)
        self.running_var = torch.ones(num_features)
        self.num_batches_tracked = torch.tensor(0)

    def forward(self, x):
        dims = [0, *range(2, x.dim())]
        shape = [1, -1] + [1] * (x.dim() - 2)
        if self.training:
            n = x.numel() // x.shape[1]
            if n <= 1:
                raise ValueError("expected more than 1 value per channel when training")
            mean, var = x.mean(dim=dims), x.var(dim=dims, correction=0)
            with torch.no_grad():
                m = self.momentum
                self.running_mean = (1 - m) * self.running_mean + m * mean
                self.running_var = (1 - m) * self.running_var + m * var * n / (n - 1)
                self.num_batches_tracked += 1
        else:
            mean, var = self.running_mean, self.running_var
        x_hat = (x - mean.reshape(shape)) / torch.sqrt(var.reshape(shape) + self.eps)
        return x_hat * self.weight.reshape(shape) + self.bias.reshape(shape)
