# mistake: the transpose of the product after Ai is written as A(i+1).T @ ... @ An.T, the
# transposes in the forward's order; (B @ C).T is C.T @ B.T
# fails: five_matrices


def chain_backward(xs, grad_out):
    n = len(xs)
    prefix = [xs[0]]  # prefix[i] = A1 @ ... @ A(i+1)
    for a in xs[1:-1]:
        prefix.append(prefix[-1] @ a)
    suffix_t = [None] * n  # meant to be (A(i+2) @ ... @ An).T
    for i in range(n - 2, -1, -1):
        later = xs[i + 1].T
        suffix_t[i] = later if suffix_t[i + 1] is None else later @ suffix_t[i + 1]
    grads = []
    for i in range(n):
        g = grad_out if suffix_t[i] is None else grad_out @ suffix_t[i]
        grads.append(g if i == 0 else prefix[i - 1].T @ g)
    return grads
