import torch

torch.manual_seed(0)
g1, g2 = torch.randn(5), torch.randn(5)
g1, g2 = g1 / g1.norm() * 50, g2 / g2.norm()  # a spike of norm 50, then a gradient of norm 1


def updates(opt_class, grads, **kwargs):
    """The update each step makes, for the given gradients."""
    p = torch.zeros(5, requires_grad=True)
    opt = opt_class([p], lr=0.1, **kwargs)
    out = []
    for g in grads:
        before = p.detach().clone()
        p.grad = g.clone()
        opt.step()
        out.append(p.detach() - before)
    return out


clipped = g1 / 50  # what clip_grad_norm_(max_norm=1) makes of g1
for name, cls in (("SGD", torch.optim.SGD), ("Adam", torch.optim.Adam)):
    raw, clip = updates(cls, [g1, g2]), updates(cls, [clipped, g2])
    print(f"{name}: step 1 update, raw vs clipped: norm {raw[0].norm():.4f} vs {clip[0].norm():.4f}, "
          f"cosine {torch.cosine_similarity(raw[0], clip[0], dim=0):.4f}")
    print(f"{name}: step 2 update (same gradient), raw vs clipped step 1 before it: "
          f"norm {raw[1].norm():.4f} vs {clip[1].norm():.4f}, "
          f"cosine {torch.cosine_similarity(raw[1], clip[1], dim=0):.4f}")
