"""Shared test fixtures.

**The event loop is never blocked.** Every callback an asyncio loop runs in a test
(a task's step, a protocol's `data_received`, a timer) is timed; a test in which one ran
longer than `BLOCKED_LOOP_S` fails, naming the callback. The heavy work (shuffle proofs,
their checks, fsync) runs in worker threads; if it ever creeps back onto the loop, the
screen freezes and peers miss their timers, and this is where it shows first (as in
python-zeroconf's own test suite).

**Loopback tables.** `loopback_table` seats seeded peers on 127.0.0.1 over real TCP, the
start of most network tests; `transcript` writes their committed records as a transcript
file (SPEC §4.8) for `rommy verify` (both from `tests/loopback.py`, which helper modules
such as `tests/adversaries.py` import directly).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from p2p_rommy.seat.session import Session
from tests.loopback import CLEAN_RUMMY, seat_on_loopback, transcript_of

BLOCKED_LOOP_S = 0.5
"""Longest a single event-loop callback may run (wall clock, on a loaded 2-core CI)."""

_blocked: list[tuple[float, str]] = []
_original_run = asyncio.events.Handle._run


def _timed_run(self: asyncio.events.Handle) -> None:
    started = time.perf_counter()
    try:
        _original_run(self)
    finally:
        spent = time.perf_counter() - started
        if spent > BLOCKED_LOOP_S:
            _blocked.append((spent, _describe(self)))


def _describe(handle: asyncio.events.Handle) -> str:
    """The callback, or for a task's step the coroutine it runs (named by its function)."""
    owner = getattr(handle._callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        return f"the task {owner.get_name()} running {owner.get_coro()!r}"[:400]
    return repr(handle)[:400]


def pytest_configure(config: pytest.Config) -> None:
    asyncio.events.Handle._run = _timed_run  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def loop_never_blocked() -> Any:
    """Fail the test if any event-loop callback ran longer than `BLOCKED_LOOP_S`."""
    _blocked.clear()
    yield
    if _blocked:
        worst = max(_blocked)
        _blocked.clear()
        pytest.fail(
            f"the event loop was blocked for {worst[0]:.2f} s (over {BLOCKED_LOOP_S} s) by "
            f"{worst[1]}",
            pytrace=False,
        )


@pytest.fixture
def loopback_table() -> Callable[..., Awaitable[list[Session]]]:
    """`tests.loopback.seat_on_loopback`: seeded peers seated over TCP on 127.0.0.1."""
    return seat_on_loopback


@pytest.fixture
def transcript() -> Callable[..., bytes]:
    """`tests.loopback.transcript_of`: a game's transcript file, for `rommy verify`."""
    return transcript_of


@pytest.fixture(scope="session")
def clean_rummy(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The transcript of a clean three-seat Rummy match to 15 points (`CLEAN_RUMMY`),
    played by bots over TCP on 127.0.0.1 (`rommy simulate`'s path): once per test
    process for every module that reads it (tests/test_verify.py, test_verify_once.py)."""
    from p2p_rommy.seat.loopback_match import simulate_network

    path = tmp_path_factory.mktemp("clean") / "transcript"
    variant, players, seed, house = CLEAN_RUMMY
    asyncio.run(simulate_network(variant, players, seed, house, path, timeout=300))
    return path.read_bytes()


# --- the simulator's campaign in CI's output (tests/test_sim.py) ---------------------------

_sim_totals: dict[str, int] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Sum the simulator's counts (each chunk records them as a property; with xdist the
    reports, properties included, come back to the controller, where this runs)."""
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == "sim" and isinstance(value, str):
            for key, count in json.loads(value).items():
                _sim_totals[key] = _sim_totals.get(key, 0) + int(count)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line after the run (shown without ``-s``): the issue's "N simulated games, F
    faults, A adversary games: 0 invariant violations"."""
    if _sim_totals:
        totals = _sim_totals
        terminalreporter.write_line(
            f"{totals.get('games', 0)} simulated games, {totals.get('faults', 0)} faults, "
            f"{totals.get('adversary_games', 0)} adversary games: "
            f"{totals.get('violations', 0)} invariant violations "
            f"({totals.get('verified', 0)} honest transcripts verified)"
        )
