# mistake: the gradients are collected while walking back from An and returned in that order,
# [dAn, ..., dA1], not in the order of xs
# fails: shapes


def chain_backward(xs, grad_out):
    n = len(xs)
    prefix = [xs[0]]
    for a in xs[1:-1]:
        prefix.append(prefix[-1] @ a)
    grads = []
    g = grad_out
    for i in range(n - 1, 0, -1):
        grads.append(prefix[i - 1].T @ g)
        g = g @ xs[i].T
    grads.append(g)
    return grads  # dAn first: never reversed back to the order of xs
