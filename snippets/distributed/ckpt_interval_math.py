"""How often to checkpoint: expected waste against save cost. Every number below is an example."""
import math

GPUS = 1000
GPU_MTBF_H = 12_000   # example: one interruption per GPU (or its share of node, NIC, host) every 12,000 h
RESTART_S = 600       # example: reschedule, rendezvous, load the checkpoint, warm up
STALLS = {"blocking dcp.save": 60, "dcp.async_save": 5}  # example: seconds training stops per save

job_mtbf_s = GPU_MTBF_H * 3600 / GPUS  # failures add up: 1,000 GPUs fail 1,000 times as often
print(f"job mean time between failures: {job_mtbf_s / 3600:.1f} h ({GPUS} GPUs)")


def waste(interval_s, stall_s):
    """Fraction of the job's time lost: stalls while saving, plus per failure the work since the
    last checkpoint (half an interval on average) and the restart."""
    return stall_s / interval_s + (interval_s / 2 + RESTART_S) / job_mtbf_s


intervals_min = [5, 10, 30, 60, 120]
print(f"{'stall per save':<24}" + "".join(f"{'every ' + str(m) + ' min':>15}" for m in intervals_min))
for name, stall in STALLS.items():
    print(f"{name + f' ({stall} s)':<24}" + "".join(f"{waste(m * 60, stall):>15.1%}" for m in intervals_min))
for name, stall in STALLS.items():
    best = math.sqrt(2 * stall * job_mtbf_s)  # d(waste)/d(interval) = 0
    print(f"{name}: best interval sqrt(2 * stall * MTBF) = {best / 60:.0f} min, waste {waste(best, stall):.1%}"
          f" = {waste(best, stall) * GPUS * 24:.0f} GPU-hours a day")
