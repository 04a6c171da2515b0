"""Issues #30/#31: at the end of a match between processes, the first seat to finish
closed its connections with the others' last words unread, so the kernel reset them:
its own last words could be lost at the others ("Broken pipe" in their logs), whose
queues for it were never written, and every headless seat then waited the whole 10 s
of `Mesh.flushed` before it exited. Now a leaving seat half-closes each connection
and reads what is still coming until the other side closes too (`Mesh.close`), and a
seat whose match is over does not wait for a seat that has said its last words and
closed (`Session.run`): three `rommy` processes all exit at once."""

from __future__ import annotations

import asyncio
import errno
import random
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from p2p_rommy.bots import make_bot
from p2p_rommy.engine.state import Phase
from p2p_rommy.frontends.local import local_table
from p2p_rommy.net.mesh import Mesh, half_close
from p2p_rommy.sim import Spec
from p2p_rommy.sim.runner import Simulation
from p2p_rommy.wire.identity import Identity
from tests.test_tui_lobby import until

LOGGED = (
    "import logging, sys; "
    "logging.basicConfig(level=logging.INFO, format='%(name)s %(message)s'); "
    "from p2p_rommy.cli import main; sys.exit(main())"
)
"""`rommy` with its INFO log on stderr (a bot seat logs only warnings there)."""

PROMPT_EXIT_S = 3.0
"""From the last commit anywhere to each process's exit: leaving the table, printing
the score sheet and Python's own exit (under this machine's load); it was 10 s."""


def rommy(*args: str, data: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", LOGGED, *args, "--interface", "127.0.0.1", "--data-dir", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_every_process_exits_at_once_when_the_match_is_over(tmp_path):
    host = rommy(
        "host",
        "--table",
        "Linger",
        "--variant",
        "rummy",
        "--house",
        "target_score=1",
        "--start-when",
        "3",
        "--bot",
        "random",
        "--name",
        "Ann",
        data=tmp_path / "Ann",
    )
    time.sleep(1.5)
    joiners = [
        rommy("join", "Linger", "--bot", "random", "--name", name, data=tmp_path / name)
        for name in ("Bo", "Cy")
    ]
    processes = {"Ann": host, "Bo": joiners[0], "Cy": joiners[1]}
    exited: dict[str, float] = {}
    deadline = time.monotonic() + 240
    while len(exited) < len(processes) and time.monotonic() < deadline:
        for name, process in processes.items():
            if name not in exited and process.poll() is not None:
                exited[name] = time.time()
        time.sleep(0.02)
    logs = {name: process.communicate(timeout=30)[1] for name, process in processes.items()}
    assert len(exited) == len(processes), logs
    assert all(p.returncode == 0 for p in processes.values()), logs
    last_commit = max(
        next((tmp_path / name / "games").glob("*/transcript")).stat().st_mtime for name in processes
    )
    late = {name: round(at - last_commit, 2) for name, at in exited.items()}
    assert all(after < PROMPT_EXIT_S for after in late.values()), (late, logs)
    for name, log in logs.items():
        for trace in ("Broken pipe", "reset", "Traceback"):
            assert trace not in log, (name, log)


# --- the half-close, on each kind of transport ------------------------------------


def test_a_half_closed_connection_still_carries_the_answer():
    """`half_close` on TCP: the other side reads the end of stream, then still answers,
    and that answer is read (nothing is reset)."""

    async def main() -> tuple[bytes, bytes]:
        answered: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(b"last words")
            half_close(writer)
            answered.set_result(await reader.read())  # until the other side closes
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        heard = await reader.read()  # to the end of stream: the other side closed its half
        writer.write(b"and mine")
        writer.close()
        await writer.wait_closed()
        answer = await asyncio.wait_for(answered, 5)
        server.close()
        await server.wait_closed()
        return heard, answer

    assert asyncio.run(main()) == (b"last words", b"and mine")


class WholeOnly:
    """A stream writer whose transport cannot close one side (TLS does so)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def can_write_eof(self) -> bool:
        return False

    def write_eof(self) -> None:
        self.calls.append("write_eof")

    def close(self) -> None:
        self.calls.append("close")


def test_a_transport_that_cannot_half_close_is_closed_whole():
    writer = WholeOnly()
    half_close(writer)
    assert writer.calls == ["close"]


class GoneAlready(WholeOnly):
    """A writer whose socket went away under it: `write_eof` fails."""

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.calls.append("write_eof")
        raise OSError(errno.ENOTCONN, "not connected")


def test_a_half_close_that_fails_closes_whole():
    writer = GoneAlready()
    half_close(writer)
    assert writer.calls == ["write_eof", "close"]


# --- two meshes over TCP ------------------------------------------------------------


async def two_meshes(
    on_message: Callable[[int, bytes], Awaitable[bool]],
) -> tuple[Mesh, Mesh]:
    """Seat 0 and seat 1, connected over TCP on 127.0.0.1; seat 1 gets `on_message`."""
    identities = [Identity.generate() for _ in range(2)]
    keys = [i.public_key for i in identities]

    async def accept(seat: int, envelope: bytes) -> bool:
        return True

    meshes = (
        Mesh(identities[0], bytes(32), 0, keys, accept),
        Mesh(identities[1], bytes(32), 1, keys, on_message),
    )
    addresses = {s: [await mesh.listen("127.0.0.1", 0)] for s, mesh in enumerate(meshes)}
    for mesh in meshes:
        mesh.connect(addresses)
    await until(lambda: all(all(m.connected().values()) for m in meshes), timeout=10)
    return meshes


def test_a_leaving_mesh_is_heard_to_the_end_and_waits_only_for_the_other_side():
    """Seat 0 leaves with a message queued: it arrives, seat 1 sees seat 0 left (not a
    reset), and seat 0's close ends as soon as seat 1 has closed too, not after the
    linger."""
    heard: list[bytes] = []

    async def keep(seat: int, envelope: bytes) -> bool:
        heard.append(envelope)
        return True

    async def main() -> float:
        leaving, staying = await two_meshes(keep)
        leaving.send(1, [b"last words"])
        started = time.monotonic()
        await leaving.close(linger=8.0)
        took = time.monotonic() - started
        await until(lambda: staying.left(0), timeout=5)
        await staying.close()
        return took

    took = asyncio.run(main())
    assert heard == [b"last words"]
    assert took < 2.0, took


def test_a_leaving_mesh_gives_up_on_a_side_that_never_closes_after_the_linger():
    """Seat 1 is stuck in a message (it never reads the end of stream): seat 0 leaves
    after `linger`, not never."""

    async def stuck(seat: int, envelope: bytes) -> bool:
        await asyncio.Event().wait()
        return True

    async def main() -> float:
        leaving, staying = await two_meshes(stuck)
        leaving.send(1, [b"this one is never done with"])
        await asyncio.sleep(0.2)
        started = time.monotonic()
        await leaving.close(linger=0.5)
        took = time.monotonic() - started
        assert not staying.left(0)
        await staying.close(linger=0.1)
        return took

    took = asyncio.run(main())
    assert 0.4 < took < 2.0, took


# --- a session whose match is over ----------------------------------------------------


def test_a_finished_seat_does_not_wait_for_a_seat_that_has_left():
    """The match is over; the other seat has left (closed its side) while this seat
    still had something queued for it, as when that seat read this one's last words
    and left before this seat wrote its own: `Session.run` leaves at once instead of
    waiting the whole flush (10 s) for a queue nobody will read."""

    async def main() -> float:
        human, others = await local_table("rummy", ["normal"], {"target_score": "1"}, "Ann", 3)
        human.peer.player = make_bot("normal", random.Random(3))  # its moves, by a bot
        other = asyncio.create_task(others[0].run())
        flush = human.mesh.flushed
        took: list[float] = []

        async def after_the_other_left(
            timeout: float = 10.0, settled: Callable[[int], bool] | None = None
        ) -> bool:
            await asyncio.wait_for(other, 60)  # it finished and closed its connections
            await until(lambda: human.mesh.left(1), timeout=10)
            human.mesh.send(1, [b"its last words, never written"])
            started = time.monotonic()
            flushed = await flush(timeout, settled)
            took.append(time.monotonic() - started)
            return flushed

        human.mesh.flushed = after_the_other_left  # the flush, once the other seat left
        final = await asyncio.wait_for(human.run(), 300)
        assert final.phase is Phase.MATCH_OVER
        return took[0]

    took = asyncio.run(main())
    assert took < 1.0, took  # was the whole flush timeout: 10 s


# --- the simulator's model of it ----------------------------------------------------


def test_the_simulator_models_seats_that_leave_at_once():
    """`sim/runner.py` models `Session.run`: in a game without faults the last seat to
    finish leaves with its last commit (it waited `LINGER_S`, 10 simulated seconds,
    for its last words to seats that had left before it)."""
    for seed in range(3):
        simulation = Simulation(Spec(seed=seed))
        outcome = simulation.run()
        assert outcome.ok and outcome.end == "over", outcome.violations
        assert outcome.sim_time - simulation.moved_at < 0.5, (seed, outcome.sim_time)
