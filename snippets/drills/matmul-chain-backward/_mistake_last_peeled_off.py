# mistake: the last gradient is peeled off the loop as prefix[-1].T @ grad_out, "the product
# before An": for one matrix that product is empty, but prefix[-1] is A1 itself, so dA1 comes
# out as A1.T @ grad_out
# fails: one_matrix


def chain_backward(xs, grad_out):
    n = len(xs)
    prefix = [xs[0]]  # prefix[i] = A1 @ ... @ A(i+1)
    for a in xs[1:-1]:
        prefix.append(prefix[-1] @ a)
    grads = [prefix[-1].T @ grad_out]  # dAn, peeled off the loop
    g = grad_out
    for i in range(n - 2, -1, -1):
        g = g @ xs[i + 1].T
        grads.insert(0, g if i == 0 else prefix[i - 1].T @ g)
    return grads
