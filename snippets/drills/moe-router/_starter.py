import torch


def route(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Top-k routing of T tokens to E experts, with the Switch Transformer load-balancing loss
    generalised to top-k.

    logits: (T, E) router logits, float32 or float64, finite (they may be as large as 1e4 in
        magnitude), T >= 1 tokens, E >= 2 experts.
    k: an int with 1 <= k <= E, the number of experts each token is sent to.

    Returns (weights, experts, aux_loss):
    probs = softmax(logits) over all E experts of each token (row), computed so that logits of
        1e4 give no inf or NaN.
    experts: (T, k) int64, each token's k most probable experts, the most probable first, as
        torch.topk(probs, k, dim=-1).indices orders them. Where probabilities tie, any of the
        tied experts may be chosen, in any order among themselves.
    weights: (T, k) in logits' dtype: the probabilities of those experts (from the softmax over
        all E), renormalised to sum to 1 over the k of each token:
        weights[t, j] = probs[t, experts[t, j]] / sum_i probs[t, experts[t, i]].
        (This equals a softmax over the k selected logits.) With k = 1 every weight is 1.0.
    aux_loss: a 0-dim tensor in logits' dtype,
        aux_loss = E * sum over e of f[e] * P[e], where
        f[e] = (number of the T * k entries of experts equal to e) / (T * k): the fraction of the
            assignments routed to expert e (sum over e of f is 1). f is a count: it carries no
            gradient.
        P[e] = mean over the T tokens of probs[:, e]: the mean router probability of expert e
            from the full softmax (sum over e of P is 1).
        Perfectly balanced routing (uniform logits) gives aux_loss = 1.0.
    weights and aux_loss are differentiable with respect to logits: the gradient of weights is
    that of the formula above (through the selected probabilities), and the gradient of
    aux_loss flows through P only. experts carries no gradient.
    float64 logits are computed in float64.
    """
    raise NotImplementedError("write route here")
