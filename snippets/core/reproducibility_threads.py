import subprocess
import sys

# seed, set the thread count, sum four million floats and do a matrix-vector product
CODE = """
import sys, torch
torch.use_deterministic_algorithms(True)
def results(threads):
    torch.manual_seed(0)
    torch.set_num_threads(threads)
    x = torch.randn(4_000_000)
    return x.sum().item(), (x.view(400, 10_000) @ x[:10_000]).sum().item()
"""

if __name__ == "__main__":
    exec(CODE)
    here = results(1)  # noqa: F821 (defined by exec)
    other_process = subprocess.run(
        [sys.executable, "-c", CODE + "print(*results(1), *results(4))"],
        capture_output=True, text=True, check=True).stdout.split()
    one, four = tuple(map(float, other_process[:2])), tuple(map(float, other_process[2:]))
    print("1 thread, this process vs another, same sum and matmul:", here == one)
    print("1 thread vs 4 threads, same sum:", one[0] == four[0])
    print("1 thread vs 4 threads, same matmul:", one[1] == four[1])
    print("relative difference of the sums below 1e-5:", abs(one[0] - four[0]) / abs(one[0]) < 1e-5)
