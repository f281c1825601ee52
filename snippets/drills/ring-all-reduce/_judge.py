"""The judge of ring-all-reduce. It starts the ranks itself: for each world size N = 2, 3 and 4
(the three at once), N processes forked from the judge's own (torch.multiprocessing, start
method fork, so no rank imports torch again) join a gloo process group on 127.0.0.1, at a port
found free at run time. Each rank first computes the trusted sums with dist.all_reduce on copies
of its inputs, then replaces every collective with one that raises and wraps send, recv, isend and
irecv to count what moves, loads the solution's file again (so no import escapes the patch) and
calls ring_all_reduce on each input. A rank still in the solution 8 s after its first call is
ended by SIGALRM (a deadlock); the judge waits for every process it started and kills any left."""

import importlib.util
import os
import signal
import socket
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from _drill import Tests, Wrong
from torch.distributed import distributed_c10d as c10d

TESTS = Tests("ring-all-reduce")
WORLDS = (2, 3, 4)
ALARM_S = 8
# (shape, dtype, seed), the same on every rank and world size; the inputs differ by rank.
CASES = [((1,), "float32", 0), ((2,), "float32", 1), ((1,), "int64", 2), ((7,), "float32", 3),
         ((1000,), "float32", 4), ((3, 5), "float32", 5), ((1001,), "int64", 6),
         ((10,), "int64_big", 7), ((4, 1, 3), "float32", 8)]
FORBIDDEN = ("all_reduce", "reduce", "broadcast", "all_gather", "all_gather_into_tensor",
             "all_gather_object", "reduce_scatter", "reduce_scatter_tensor", "all_to_all",
             "all_to_all_single", "gather", "scatter", "barrier", "broadcast_object_list",
             "all_reduce_coalesced", "monitored_barrier")
SMALL = (0, 1, 2)  # the cases with fewer elements than some world size
INT64 = (2, 6, 7)


def _make(shape, dtype, seed, rank):
    g = torch.Generator().manual_seed(1000 * seed + rank)
    if dtype == "float32":
        return torch.randn(shape, generator=g)
    high = 2 ** 40 if dtype == "int64_big" else 1000
    return torch.randint(-high, high, shape, generator=g)


def _message(exc):
    """An exception in a line; gloo's transport errors (which name addresses and ports) as what
    they mean."""
    text = (str(exc).splitlines() or [""])[0]
    if "gloo" in text or "127.0.0.1" in text:
        text = ("a gloo transport error: a peer closed the connection or sent a message of another"
                " size than this rank expected")
    return f"{type(exc).__name__}: {text}"


def _rank_main(path, solution, rank, world, port, conn):
    """One rank, in a forked process: the trusted sums with the real dist.all_reduce, then the
    solution under watch; one dict per case through `conn`."""
    quiet = os.open(os.devnull, os.O_WRONLY)  # gloo's own messages name ports: not in the record
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    inputs = [_make(*case, rank) for case in CASES]
    trusted = [x.clone() for x in inputs]
    for t in trusted:
        dist.all_reduce(t)
    log = {"called": [], "to": set(), "frm": set(), "sent": 0}

    def forbid(name):
        def call(*args, **kwargs):
            log["called"].append(name)
            raise RuntimeError(f"dist.{name} is a collective: only send, recv, isend and irecv may"
                               " be used")
        return call

    depth = [0]  # send calls isend inside torch: count the outer call only

    def counted(fn, sends):
        def call(tensor, *args, **kwargs):
            if depth[0] == 0:
                key = "dst" if sends else "src"
                peer = kwargs.get(key, args[0] if args else None)
                if peer is None:
                    peer = kwargs.get("group_" + key)
                log["to" if sends else "frm"].add(-1 if peer is None else int(peer))
                if sends:
                    log["sent"] += tensor.numel()
            depth[0] += 1
            try:
                return fn(tensor, *args, **kwargs)
            finally:
                depth[0] -= 1
        return call

    for module in (dist, c10d):
        for name in FORBIDDEN:
            if hasattr(module, name):
                setattr(module, name, forbid(name))
    for name, sends in (("send", True), ("isend", True), ("recv", False), ("irecv", False)):
        wrapped = counted(getattr(c10d, name), sends)
        setattr(dist, name, wrapped)
        setattr(c10d, name, wrapped)
    if path is not None:  # loaded again, after the patch, so that no import escapes it
        spec = importlib.util.spec_from_file_location("_ring_solution", path)
        solution = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(solution)
    fn = getattr(solution, "ring_all_reduce", None)
    if fn is None:
        conn.send({"missing": True})
        return
    signal.alarm(ALARM_S)  # a deadlock ends the process
    for i, (x, want) in enumerate(zip(inputs, trusted, strict=True)):
        log.update(called=[], to=set(), frm=set(), sent=0)
        given = x.clone()
        out = {"case": i, "rank": rank}
        try:
            back = fn(given)
        except Exception as exc:
            out.update(error=_message(exc), called=log["called"])
            conn.send(out)
            return
        exact = want.dtype == torch.int64

        def same(t, want=want, exact=exact):
            if not isinstance(t, torch.Tensor) or t.shape != want.shape or t.dtype != want.dtype:
                return False
            return torch.equal(t, want) if exact else torch.allclose(t, want, rtol=1e-5, atol=1e-5)

        result = given if same(given) or not isinstance(back, torch.Tensor) else back
        out.update(in_place=same(given), right=same(result), called=log["called"],
                   to=sorted(log["to"]), frm=sorted(log["frm"]), sent=log["sent"])
        if not out["right"] and isinstance(result, torch.Tensor) and result.shape == want.shape:
            diff = (result.double() - want.double()).abs().flatten()
            j = int(diff.argmax())
            out["where"] = [j, result.flatten()[j].item(), want.flatten()[j].item()]
        conn.send(out)
    signal.alarm(0)
    dist.destroy_process_group()


def _rank(path, solution, rank, world, port, conn):
    try:
        _rank_main(path, solution, rank, world, port, conn)
    except BaseException as exc:  # reported to the judge, not printed
        conn.send({"rank": rank, "crash": _message(exc)})
    finally:
        conn.close()


_RUNS = {}


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def runs(solution):
    """Every world size's outcome for this solution, run once, the three at the same time: for
    each N, the lines the ranks sent and the ranks the alarm ended."""
    key = id(solution)
    if key in _RUNS:
        return _RUNS[key]
    path = getattr(solution, "__file__", None)
    ctx = mp.get_context("fork")
    started = {}
    for world in WORLDS:
        port, ranks = free_port(), []
        for rank in range(world):
            receive, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_rank, args=(path, solution, rank, world, port, send), daemon=True)
            proc.start()
            send.close()
            ranks.append((proc, receive))
        started[world] = ranks
    outcome, deadline = {}, time.monotonic() + 60  # a rank stuck outside the solution: killed
    for world, ranks in started.items():
        lines, alarmed = [], []
        for rank, (proc, receive) in enumerate(ranks):
            while receive.poll(max(0.0, deadline - time.monotonic())):  # read as it comes
                try:
                    lines.append(receive.recv())
                except EOFError:
                    break
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join()
            if proc.exitcode == -signal.SIGALRM:
                alarmed.append(rank)
            elif proc.exitcode not in (0, None):
                lines.append({"rank": rank, "crash": f"the process ended with exit code {proc.exitcode}"
                              + (" (SIGABRT: gloo aborts when a message's size differs from the"
                                 " size posted to receive it)" if proc.exitcode == -signal.SIGABRT
                                 else "")})
        outcome[world] = (lines, alarmed)
    _RUNS[key] = outcome
    return outcome


def describe(case):
    shape, dtype, _ = CASES[case]
    return f"{'an int64' if dtype.startswith('int64') else 'a float32'} tensor of shape {tuple(shape)}"


TRANSPORT = "a gloo transport error"


def results(solution, world, cases):
    """Each (rank, case) line for these cases; Wrong for a missing function, a deadlock, a rank's
    error or a crash before they were all done. A deadlock is named first: once the alarm ends
    one rank, its peers see transport errors."""
    lines, alarmed = runs(solution)[world]
    if any(line.get("missing") for line in lines):
        raise Wrong("the solution defines no `ring_all_reduce`")
    done = {(line["rank"], line["case"]): line for line in lines if "case" in line and "error" not in line}
    incomplete = [case for case in range(len(CASES))
                  if any((rank, case) not in done for rank in range(world))]
    if incomplete and min(incomplete) <= max(cases):
        first = min(incomplete)
        if alarmed:
            raise Wrong(f"N = {world}: the ranks were still inside ring_all_reduce {ALARM_S} s after it"
                        f" was called on {describe(first)}, and were ended: a deadlock (every rank"
                        f" waiting in send or recv)")
        errors = sorted((line["case"], line["rank"], line["error"]) for line in lines if "error" in line)
        own = [e for e in errors if TRANSPORT not in e[2]]
        if own:
            case, rank, error = own[0]
            raise Wrong(f"N = {world}: rank {rank} raised {error} on {describe(case)}")
        if errors or any("crash" in line for line in lines):
            raise Wrong(f"N = {world}: on {describe(first)} the ranks' messages did not match: gloo"
                        f" failed (a message of another size than the one posted to receive it, or"
                        f" a peer that had ended)")
        raise Wrong(f"N = {world}: no result for {describe(first)}")
    return [done[(rank, case)] for case in cases for rank in range(world)]


def check_values(solution, world, cases):
    for line in results(solution, world, cases):
        if not line["right"]:
            text = f"N = {world}: rank {line['rank']}, {describe(line['case'])}: "
            if "where" in line:
                j, got, want = line["where"]
                raise Wrong(text + f"flat element {j} is {got:.6g}, dist.all_reduce gives {want:.6g}")
            raise Wrong(text + "the result is not a tensor of the input's shape and dtype")


@TESTS.test("only point-to-point messages: no collective (all_reduce, broadcast, all_gather,"
            " reduce_scatter, barrier, ...) is called, N = 2, 3, 4", timeout_s=200,
            hint="move every byte with dist.send/dist.recv or dist.isend/dist.irecv; the ring"
                 " replaces the collective, it cannot call one")
def test_point_to_point_only(solution):
    for world in WORLDS:
        lines, _ = runs(solution)[world]
        if any(line.get("missing") for line in lines):
            raise Wrong("the solution defines no `ring_all_reduce`")
        for line in sorted((line for line in lines if line.get("called")),
                           key=lambda line: (line["case"], line["rank"])):
            raise Wrong(f"N = {world}: rank {line['rank']} called dist.{line['called'][0]} on"
                        f" {describe(line['case'])}")


@TESTS.test("N = 2: every rank's tensor holds dist.all_reduce's sum, float32 and int64, shapes (7,),"
            " (1000,), (3, 5), (1001,), (4, 1, 3)",
            hint="work N = 2 out on paper: two chunks, one step of reduce-scatter (each rank ends with"
                 " one summed chunk), one step of all-gather (each passes its summed chunk on). The"
                 " result is the sum, not the mean, in the input's dtype")
def test_world_2(solution):
    check_values(solution, 2, (3, 4, 5, 6, 8))


@TESTS.test("N = 3: the same shapes, numel not divisible by 3 (7, 1000, 1001 elements)",
            hint="at step s rank r sends chunk (r - s) % N and adds the one it receives into chunk"
                 " (r - s - 1) % N; with tensor_split the chunks differ in size, so receive into a"
                 " buffer shaped like the chunk you will add it to")
def test_world_3(solution):
    check_values(solution, 3, (3, 4, 5, 6, 8))


@TESTS.test("N = 4: the same shapes",
            hint="a rank must receive from (r - 1) % N and send to (r + 1) % N: receiving from the"
                 " rank it sends to waits forever once N > 2")
def test_world_4(solution):
    check_values(solution, 4, (3, 4, 5, 6, 8))


@TESTS.test("fewer elements than ranks: numel 1 and 2 (float32) and 1 (int64), N = 2, 3, 4",
            hint="torch.tensor_split(flat, N) gives empty chunks when numel < N; skip sending and"
                 " receiving an empty chunk on both sides, or the ranks disagree about how many"
                 " messages there are")
def test_fewer_elements(solution):
    for world in WORLDS:
        check_values(solution, world, SMALL)


@TESTS.test("int64 sums are exact, values up to 2**40 included, N = 2, 3, 4",
            hint="keep the tensor's dtype: add the received chunk into the int64 chunk, never"
                 " through float32 (which holds integers exactly only up to 2**24)")
def test_int64_exact(solution):
    for world in WORLDS:
        check_values(solution, world, INT64)


@TESTS.test("in place: the tensor passed in holds the sum afterwards (returning a new one is not"
            " enough), N = 2, 3, 4",
            hint="tensor_split of tensor.view(-1) gives views: add_ into them, recv into them,"
                 " and the caller's tensor changes")
def test_in_place(solution):
    for world in WORLDS:
        for line in results(solution, world, range(len(CASES))):
            if not line["in_place"]:
                raise Wrong(f"N = {world}: rank {line['rank']}, {describe(line['case'])}: the tensor"
                            " passed in does not hold the sum after the call")


@TESTS.test("a ring: rank r sends only to (r + 1) % N and receives only from (r - 1) % N, N = 3, 4",
            hint="each rank talks to its two neighbours only; gathering everything on rank 0 is"
                 " the naive all-reduce, not the ring")
def test_ring_neighbours(solution):
    for world in (3, 4):
        for line in results(solution, world, range(len(CASES))):
            r = line["rank"]
            if set(line["to"]) - {(r + 1) % world} or set(line["frm"]) - {(r - 1) % world}:
                raise Wrong(f"N = {world}: rank {r}, {describe(line['case'])}: sent to {line['to']},"
                            f" received from {line['frm']}; the ring allows {(r + 1) % world} and"
                            f" {(r - 1) % world}")


@TESTS.test("the ring's traffic: each rank sends at most 2 (N - 1) * ceil(numel / N) elements, N = 2,"
            " 3, 4",
            hint="send one chunk per step, never the whole tensor: 2 (N - 1) steps of about numel / N"
                 " elements, about twice the tensor in all, whatever N")
def test_ring_traffic(solution):
    for world in WORLDS:
        for line in results(solution, world, range(len(CASES))):
            numel = 1
            for size in CASES[line["case"]][0]:
                numel *= size
            bound = 2 * (world - 1) * -(-numel // world)
            if line["sent"] > bound:
                raise Wrong(f"N = {world}: rank {line['rank']} sent {line['sent']} elements for"
                            f" {describe(line['case'])} ({numel} elements), more than"
                            f" 2 (N - 1) * ceil(numel / N) = {bound}")
