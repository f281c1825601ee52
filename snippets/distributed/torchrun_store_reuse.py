#| devices: cpu
#| timeout: 180
import os
import subprocess
import sys
import tempfile
import textwrap

WORKER = textwrap.dedent('''
    import os, sys, time
    from datetime import timedelta
    import torch
    import torch.distributed as dist

    out = sys.argv[1]
    attempt = os.environ["TORCHELASTIC_RESTART_COUNT"]
    rank = int(os.environ["RANK"])
    agent_store = os.environ["TORCHELASTIC_USE_AGENT_STORE"] == "True"
    # what init_process_group's env:// does (_create_c10d_store): a client of the agent's store,
    # or, without it, rank 0 hosts a new store at MASTER_ADDR:MASTER_PORT
    store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                          is_master=(rank == 0 and not agent_store), multi_tenant=True,
                          timeout=timedelta(seconds=60))
    if rank == 0:  # before any rank of this attempt writes a key
        with open(os.path.join(out, f"attempt{attempt}.txt"), "w") as f:
            print(f"TORCHELASTIC_USE_AGENT_STORE={os.environ['TORCHELASTIC_USE_AGENT_STORE']}",
                  "keys found:", sorted(store.list_keys()), file=f)
        store.set(f"listed{attempt}", "1")
    store.wait([f"listed{attempt}"])
    if attempt == "1" and agent_store:
        sys.exit(0)  # stop here: whether a new group would read the old keys is a race
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))  # env://, no prefix
    t = torch.tensor([rank + 1.0])
    dist.all_reduce(t)
    dist.barrier()
    if attempt == "0":
        if rank == 1:
            raise RuntimeError("rank 1 fails on the first attempt")
        time.sleep(60)  # rank 0 waits to be stopped by the agent
    with open(os.path.join(out, f"attempt{attempt}.txt"), "a") as f:
        print(f"  rank {rank} all_reduce {t.item()}", file=f)
    dist.destroy_process_group()
''')


def launch(disable_sharing):
    with tempfile.TemporaryDirectory() as out:
        script = os.path.join(out, "worker.py")
        with open(script, "w") as f:
            f.write(WORKER)
        env = dict(os.environ)
        if disable_sharing:
            env["TORCH_DISABLE_SHARE_RDZV_TCP_STORE"] = "1"
        run = subprocess.run(
            [sys.executable, "-m", "torch.distributed.run", "--standalone",
             "--nproc-per-node", "2", "--max-restarts", "1", script, out],
            env=env, capture_output=True, text=True, timeout=120, check=False)
        print(f"TORCH_DISABLE_SHARE_RDZV_TCP_STORE={'1' if disable_sharing else 'unset'}:"
              f" torchrun exit code {run.returncode}")
        for name in sorted(n for n in os.listdir(out) if n.endswith(".txt")):
            with open(os.path.join(out, name)) as f:
                first, *ranks = f.read().splitlines()
            print(" ", name[:-4], first)
            for line in sorted(ranks):  # the ranks append in either order
                print("   ", line.strip())


if __name__ == "__main__":
    launch(disable_sharing=False)
    launch(disable_sharing=True)
