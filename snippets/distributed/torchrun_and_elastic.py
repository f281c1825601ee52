#| devices: cpu
#| timeout: 180
import json
import os
import subprocess
import sys
import tempfile
import textwrap

WORKER = textwrap.dedent('''
    import json, os, sys
    from datetime import timedelta
    import torch
    import torch.distributed as dist

    out = sys.argv[1]
    attempt = os.environ["TORCHELASTIC_RESTART_COUNT"]
    rank = int(os.environ["RANK"])
    names = ["RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK",
             "ROLE_RANK", "ROLE_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
             "TORCHELASTIC_RESTART_COUNT", "TORCHELASTIC_MAX_RESTARTS",
             "TORCHELASTIC_RUN_ID", "OMP_NUM_THREADS"]
    env = {k: os.environ.get(k) for k in names}

    # the agent's store, at MASTER_ADDR:MASTER_PORT, outlives a restart: give each attempt
    # its own key prefix so the new group never reads the failed group's addresses
    store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                          is_master=False, timeout=timedelta(seconds=60))
    dist.init_process_group("gloo", store=dist.PrefixStore(f"attempt{attempt}/", store),
                            rank=rank, world_size=int(os.environ["WORLD_SIZE"]),
                            timeout=timedelta(seconds=60))
    ckpt = os.path.join(out, "ckpt.pt")
    step = torch.load(ckpt)["step"] if os.path.exists(ckpt) else 0  # every rank loads
    total = torch.tensor([rank + 1.0])
    dist.all_reduce(total)
    with open(os.path.join(out, f"attempt{attempt}_rank{rank}.json"), "w") as f:
        json.dump({"env": env, "resumed_at_step": step, "all_reduce": total.item()}, f)

    if rank == 0:
        torch.save({"step": step + 1}, ckpt)  # one rank writes ...
    dist.barrier()  # ... the others wait until the file is there
    if attempt == "0" and rank == 1:
        raise RuntimeError("rank 1 fails on the first attempt")
    dist.barrier()
    dist.destroy_process_group()
''')

if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as out:
        script = os.path.join(out, "worker.py")
        with open(script, "w") as f:
            f.write(WORKER)
        launch = subprocess.run(
            [sys.executable, "-m", "torch.distributed.run", "--standalone",
             "--nproc-per-node", "2", "--max-restarts", "1", script, out],
            capture_output=True, text=True, timeout=150, check=False)  # its log lines carry times and pids
        print("torchrun exit code:", launch.returncode)

        records = {}
        for name in sorted(os.listdir(out)):
            if name.startswith("attempt"):
                with open(os.path.join(out, name)) as f:
                    records[name[:-5]] = json.load(f)
        run_ids = {r["env"].pop("TORCHELASTIC_RUN_ID") for r in records.values()}
        ports = {r["env"].pop("MASTER_PORT") for r in records.values()}
        print(f"{'':27}", *records)  # one column per worker file, attempt and rank in order
        for key in records["attempt0_rank0"]["env"]:
            print(f"{key:27}", *(f"{r['env'][key]:>13}" for r in records.values()))
        for key in ("resumed_at_step", "all_reduce"):
            print(f"{key:27}", *(f"{r[key]:>13}" for r in records.values()))
        print("one run id for every worker and attempt:", len(run_ids) == 1)
        print("one MASTER_PORT for every worker and attempt:", len(ports) == 1)
