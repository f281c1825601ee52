def chain_backward(xs, grad_out):
    n = len(xs)
    # prefix[i] = A1 @ ... @ A(i+1): the forward's partial products, n - 2 matrix products
    prefix = [xs[0]]
    for a in xs[1:-1]:
        prefix.append(prefix[-1] @ a)
    grads = [None] * n
    g = grad_out  # dL/d(prefix[i] @ A(i+2) @ ... @ An) with respect to prefix[i], walking back
    for i in range(n - 1, 0, -1):
        grads[i] = prefix[i - 1].T @ g  # out = prefix[i-1] @ Ai @ (the rest)
        g = g @ xs[i].T                 # the gradient with respect to prefix[i - 1]
    grads[0] = g
    return grads
