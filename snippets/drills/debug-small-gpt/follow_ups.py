# The follow-ups of debug-small-gpt, on the pinned torch: the checks that find a bug before a long
# run does (the loss at step 0, overfitting one batch, a causality probe), a loss that falls for
# the wrong reason, and what tying the head to the token embedding changes.
import math

import torch
import torch.nn.functional as F
from _mistake_labels_not_shifted import next_token_loss as unshifted_loss
from _reference import GPT, next_token_loss

torch.manual_seed(0)
batch = torch.randint(0, 64, (4, 8)).repeat(1, 4)  # one fixed batch: 4 rows of 8 tokens, 4 times


def true_loss(model, tokens):  # the next-token loss, whatever the training loop printed
    with torch.no_grad():
        return next_token_loss(model, tokens).item()


# 1. Step 0: with nothing learned, the loss should be near ln(vocab), the loss of a uniform guess.
model = GPT()
print(f"loss at step 0: {true_loss(model, batch):.2f}, ln(64) = {math.log(64):.2f}")

# 2. Overfit one batch: a correct model must drive the loss on it towards 0.
init = {k: v.clone() for k, v in model.state_dict().items()}


def overfit(loss_fn, steps=40):
    model.load_state_dict(init)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    printed = []
    for step in range(steps + 1):
        loss = loss_fn(model, batch)
        if step % 10 == 0:
            printed.append(f"{step}: {loss.item():.2f} (true {true_loss(model, batch):.2f})")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return printed


print("fixed model, loss printed by the loop at steps 0..40:", " | ".join(overfit(next_token_loss)))
print("unshifted labels, same loop:                        ", " | ".join(overfit(unshifted_loss)))

# 3. A causality probe: change the last token; no earlier position's logits may move.
model.load_state_dict(init)
changed = batch.clone()
changed[:, -1] = (changed[:, -1] + 1) % 64
with torch.no_grad():
    moved = (model(changed) - model(batch))[:, :-1].abs().max().item()
print("largest change of an earlier logit when the last token changes:", moved)

# 4. Tying the head: one matrix serves as the token embedding and as the output layer.
untied = GPT()
tied = GPT()
tied.head.weight = tied.tok_emb.weight  # the same Parameter, so parameters() yields it once
count = lambda m: sum(p.numel() for p in m.parameters())  # noqa: E731
print("parameters untied:", count(untied), "| tied:", count(tied),
      "| saved:", count(untied) - count(tied), "= vocab x d_model =", 64 * 32)
print("same storage:", tied.head.weight.data_ptr() == tied.tok_emb.weight.data_ptr(),
      "| state_dict keys still both there:", {"head.weight", "tok_emb.weight"} <= set(tied.state_dict()))
loss = F.cross_entropy(tied(batch)[:, :-1].flatten(0, 1), batch[:, 1:].flatten())
loss.backward()
rows_used = torch.zeros(64, dtype=torch.bool)
rows_used[batch[:, :-1].unique()] = True
grad_rows = tied.tok_emb.weight.grad.abs().sum(1) > 0
print("tied: embedding rows with a gradient:", int(grad_rows.sum()), "of 64; rows of tokens in the"
      " input:", int(rows_used.sum()), "(the head's softmax reaches every row)")
untied_loss = F.cross_entropy(untied(batch)[:, :-1].flatten(0, 1), batch[:, 1:].flatten())
untied_loss.backward()
print("untied: embedding rows with a gradient:", int((untied.tok_emb.weight.grad.abs().sum(1) > 0).sum()),
      "of 64")
vocab, d = 50257, 768
print(f"at vocab {vocab}, d_model {d}: one such matrix is {vocab * d:,} parameters")
