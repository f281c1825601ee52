# mistake: each gradient recomputes the product of the matrices before Ai and the product of
# those after it from scratch: right values, but about n ** 2 matrix products instead of O(n)
# fails: linear_cost


def product(ms):
    out = ms[0]
    for m in ms[1:]:
        out = out @ m
    return out


def chain_backward(xs, grad_out):
    n = len(xs)
    grads = []
    for i in range(n):
        g = grad_out
        if i < n - 1:
            g = g @ product(xs[i + 1:]).T  # everything after Ai, recomputed for every i
        if i > 0:
            g = product(xs[:i]).T @ g  # everything before Ai, recomputed for every i
        grads.append(g)
    return grads
