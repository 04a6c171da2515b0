"""A failing seed reproduces bit for bit (issue 31): a simulated game is a function of
its `Spec` alone. Not of `PYTHONHASHSEED` (a set of str or bytes iterated into a choice
or an order), of the games played before it in the process (the per-process caches:
`sim/one_process.py`'s, `deck/proofs.py`'s verified shuffles, functools caches), of the
order a campaign's worker runs its games in, nor of the machine's load (nothing in a
game reads a clock or the OS's randomness, which is all that load could reach).

The same few seeds are played in two fresh processes under different hash seeds, in
opposite orders, and here after whatever this process ran before; every game's outcome
and the digest of its committed log must agree. A second test watches the clocks and
the OS's randomness during games: what load could reach. (Checked at length for issue 31,
comparing each game's events, simulated time, steps, faults and end: 800 seeds run
forward and backward under two hash seeds on a loaded machine; 400 campaign seeds
in a shuffled order against the same split over two xdist-like workers after the
other simulator tests; 40 seeds each alone in a fresh process; ten after a whole
4-seat lp match. No difference. Seed 696 plays 18 steps in all of them: its 17 was
the game before a seat frozen on a cheat stayed to end the game without it.)"""

from __future__ import annotations

import hashlib
import json
import os
import random
import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from p2p_rommy.sim.plan import Spec
from p2p_rommy.sim.runner import Simulation

ROOT = Path(__file__).resolve().parent.parent

SEEDS = (696, 1, 5, 8, 10, 12, 7, 45)
"""`Spec.draw` seeds that together play every variant but a whole lp match (696: lp
with the late-claim Køb! cheat, the seed issue 31 was reported on), every fault kind,
loss, duplicates and reordering, random and easy bots, three and four seats, five
cheats, and the real group (45, whose deck work runs on threads): about 3 s of CPU."""


def fingerprint(seed: int) -> str:
    """Everything a game's outcome says, with the digest of its committed log (the step
    envelopes, byte for byte), and `rommy verify`'s checker run on every transcript."""
    simulation = Simulation(Spec.draw(seed), verify_share=1.0)
    o = simulation.run()
    log = hashlib.sha256(b"".join(hashlib.sha256(s).digest() for s in simulation.canon))
    violations = [v.line() for v in o.violations]
    return (
        f"{seed} {o.events} {o.sim_time!r} {o.steps} {o.faults} {o.end} {o.verified} "
        f"{o.adversary_acted} {log.hexdigest()[:16]} {violations}"
    )


def fingerprints(seeds: tuple[int, ...]) -> dict[int, str]:
    return {seed: fingerprint(seed) for seed in seeds}


def _in_fresh_process(seeds: tuple[int, ...], hash_seed: str) -> subprocess.Popen[str]:
    code = (
        "import json, sys\n"
        "from tests.test_sim_determinism import fingerprints\n"
        f"print(json.dumps(fingerprints({seeds!r})))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )


def _read(process: subprocess.Popen[str]) -> dict[int, str]:
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 0
    return {int(seed): line for seed, line in json.loads(out).items()}


def test_a_seed_plays_the_same_game_whatever_the_hash_seed_the_order_and_the_process() -> None:
    forward = _in_fresh_process(SEEDS, "0")
    backward = _in_fresh_process(SEEDS[::-1], "2718281")
    here = fingerprints(SEEDS[3:] + SEEDS[:3])  # after the other tests this process ran
    first, second = _read(forward), _read(backward)
    for seed in SEEDS:
        assert first[seed] == second[seed] == here[seed], seed
    assert len({line.split()[5] for line in here.values()}) >= 3  # over, frozen, ended


_CLOCKS: tuple[tuple[object, str], ...] = (
    *(
        (time, name)
        for name in (
            "time",
            "time_ns",
            "monotonic",
            "monotonic_ns",
            "perf_counter",
            "perf_counter_ns",
            "process_time",
            "process_time_ns",
            "thread_time",
        )
    ),
    (os, "urandom"),
    (os, "getrandom"),
    (secrets, "token_bytes"),
    *((random.SystemRandom, name) for name in ("random", "getrandbits", "randbytes")),
    *((random, name) for name in ("random", "randrange", "randint", "choice", "shuffle")),
    *((random, name) for name in ("uniform", "sample", "getrandbits", "randbytes")),
)
"""What could bring the machine's load, the wall clock or the OS into a game: clocks,
the OS's randomness (`secrets.token_bytes`, a seat's entropy by default, draws from
`SystemRandom`), the unseeded module-level generator."""


def _ours() -> str | None:
    """The innermost frame of the package's code on the stack (file:function), if any."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        if f"{os.sep}p2p_rommy{os.sep}" in frame.f_code.co_filename:
            return f"{frame.f_code.co_filename}:{frame.f_lineno} {frame.f_code.co_name}"
        frame = frame.f_back
    return None


@contextmanager
def _watching(calls: list[str]) -> Iterator[None]:
    """Each of `_CLOCKS` (those this platform has) notes where the package called it."""
    saved = [(owner, name, getattr(owner, name)) for owner, name in _CLOCKS if hasattr(owner, name)]

    def watched(name: str, original: Callable[..., object]) -> Callable[..., object]:
        def call(*args: object, **kwargs: object) -> object:
            where = _ours()
            if where is not None:
                calls.append(f"{name} from {where}")
            return original(*args, **kwargs)

        return call

    for owner, name, original in saved:
        setattr(owner, name, watched(name, original))
    try:
        yield
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


def _reads(seeds: tuple[int, ...], verify_share: float) -> list[str]:
    calls: list[str] = []
    with _watching(calls):
        outcomes = [Simulation(Spec.draw(seed), verify_share).run() for seed in seeds]
    assert all(o.ok and o.steps for o in outcomes)
    return calls


def test_a_game_reads_no_clock_and_no_randomness_but_its_seed() -> None:
    """What load could change is only what a clock tells (or the OS's entropy), so a
    game that reads neither plays the same on a busy machine: seeds with every fault
    kind, a cheat, random bots, and the real group (whose deck work runs on threads)."""
    assert _reads((1, 12, 45), verify_share=0.0) == []


def test_rommy_verify_reads_no_randomness_either() -> None:
    """The checker the simulator runs on every honest transcript (`verify_share`)."""
    assert _reads((1,), verify_share=1.0) == []
