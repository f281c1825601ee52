import copy

import torch
import torch.nn.functional as F

torch.manual_seed(0)
vocab, d, beta = 11, 8, 0.1
policy = torch.nn.Sequential(torch.nn.Embedding(vocab, d), torch.nn.Linear(d, vocab))
reference = copy.deepcopy(policy).requires_grad_(False)  # frozen copy of the starting policy


def seq_logp(model, prompt, response):
    """Sum of log p(response token | previous token): a toy next-token model."""
    tokens = torch.cat([prompt, response])
    logits = model(tokens[:-1])                                # predict token t+1 from token t
    logp = logits.log_softmax(-1).gather(-1, tokens[1:, None]).squeeze(-1)
    return logp[len(prompt) - 1:].sum()                        # only the response's tokens count


prompt = torch.tensor([1, 2, 3])
chosen, rejected = torch.tensor([4, 5, 6]), torch.tensor([7, 8, 9])

pi_c, pi_r = seq_logp(policy, prompt, chosen), seq_logp(policy, prompt, rejected)
with torch.no_grad():                                          # reference log-probs: constants
    ref_c, ref_r = seq_logp(reference, prompt, chosen), seq_logp(reference, prompt, rejected)
print("reference log-probs require grad:", ref_c.requires_grad, ref_r.requires_grad)

margin = beta * ((pi_c - ref_c) - (pi_r - ref_r))              # implicit reward of chosen minus rejected
loss = -F.logsigmoid(margin)
print(f"at start: margin {margin.item():.4f}, loss {loss.item():.4f} (log 2 = {torch.log(torch.tensor(2.)).item():.4f})")
loss.backward()
print("policy got gradients:", all(p.grad is not None for p in policy.parameters()),
      "| reference got gradients:", any(p.grad is not None for p in reference.parameters()))

opt = torch.optim.SGD(policy.parameters(), lr=1.0)
for step in range(50):
    opt.zero_grad()
    pi_c, pi_r = seq_logp(policy, prompt, chosen), seq_logp(policy, prompt, rejected)
    loss = -F.logsigmoid(beta * ((pi_c - ref_c) - (pi_r - ref_r)))
    loss.backward()
    opt.step()
print(f"after 50 steps: chosen logp {ref_c.item():.2f} -> {pi_c.item():.2f}, "
      f"rejected logp {ref_r.item():.2f} -> {pi_r.item():.2f}, loss {loss.item():.4f}")

# why logsigmoid: -log(sigmoid(z)) overflows in float32 where -logsigmoid(z) does not
print("     z   -logsigmoid(z)  grad   -log(sigmoid(z))  grad")
for z in (-200.0, -100.0, -20.0, 0.0, 20.0):
    a, b = torch.tensor(z, requires_grad=True), torch.tensor(z, requires_grad=True)
    stable, naive = -F.logsigmoid(a), -torch.log(torch.sigmoid(b))
    stable.backward()
    naive.backward()
    print(f"{z:>6}  {stable.item():>14.4g}  {a.grad.item():>5.3g}  {naive.item():>16.4g}  {b.grad.item():>5.3g}")
