"""``rommy bench``: performance figures, measured in this run, by section.

Each section returns a flat dict of ``section.name`` -> number. Cost figures are
given as ratios against a floor measured in the same run (the deck set-up's wall
time against the scalar multiplications it must do), so they mean the same on
a slow machine and a fast one.
"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import TypeVar

from p2p_rommy.deck import DeckSeat
from p2p_rommy.engine.apply import apply, new_game
from p2p_rommy.engine.moves import Move
from p2p_rommy.engine.view import Player, View
from p2p_rommy.errors import ConfigError
from p2p_rommy.i18n import N_, _
from p2p_rommy.rules.variants import ruleset
from p2p_rommy.simulate import play_match, random_players

Figures = dict[str, float]
T = TypeVar("T")
R = TypeVar("R")


def _engine(quick: bool) -> Figures:
    """Moves applied per second, and whole random-legal 4-player lp matches per second."""
    rules = ruleset("lp")
    matches = 1 if quick else 4
    recorded = []
    started = time.perf_counter()
    for seed in range(matches):
        rng = random.Random(seed)
        recorded.append(play_match(rules, random_players(4, rng), rng).moves)
    match_seconds = time.perf_counter() - started

    repeats = 1 if quick else 3
    applied = 0
    started = time.perf_counter()
    for _repeat in range(repeats):
        for moves in recorded:
            state = new_game(rules, 4)
            for move in moves:
                state = apply(state, move)
            applied += len(moves)
    apply_seconds = time.perf_counter() - started
    return {
        "engine.moves_per_s": round(applied / apply_seconds, 1),
        "engine.lp_matches_per_s": round(matches / match_seconds, 3),
        "engine.lp_match_moves": round(sum(len(m) for m in recorded) / matches, 1),
    }


def _unit_costs(samples: int = 1000) -> tuple[float, float]:
    """CPU seconds per variable-base multiplication: the deck group's, and the fixed
    yardstick (an edwards25519 multiplication through libsodium, the v2 group), on
    fresh points; each the fastest of ten batches: a disturbance only ever adds time,
    so the fastest batch is the cost itself, and the figures measured against it err
    on the high side."""
    import hashlib

    from nacl import bindings as sodium

    from p2p_rommy.deck import group

    def fastest_cost(
        call: Callable[[bytes, bytes], bytes], pairs: list[tuple[bytes, bytes]]
    ) -> float:
        batch = max(1, len(pairs) // 10)
        costs = []
        for start in range(0, batch * 10, batch):
            started = time.thread_time()
            for scalar, point in pairs[start : start + batch]:
                call(scalar, point)
            costs.append((time.thread_time() - started) / batch)
        return min(costs)

    unit = fastest_cost(
        group.mul,
        [
            (
                group.hash_to_scalar(b"bench scalar", i.to_bytes(4, "big")),
                group.hash_to_point(hashlib.sha256(b"bench%d" % i).digest()),
            )
            for i in range(samples)
        ],
    )
    yardstick = fastest_cost(
        sodium.crypto_scalarmult_ed25519_noclamp,
        [
            (
                sodium.crypto_core_ed25519_scalar_reduce(hashlib.sha512(b"ed%d" % i).digest()),
                sodium.crypto_core_ed25519_from_uniform(hashlib.sha256(b"ed%d" % i).digest()),
            )
            for i in range(samples)
        ],
    )
    return unit, yardstick


class _SeatCost:
    """The CPU one seat spent on one call, and the part of it the proofs' work over the
    deck took, piece by piece (`deck/parallel.each`), to say what it takes on more cores."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.pieces: list[list[float]] = []

    def on(self, cores: int) -> float:
        """The call's time with the pieces split over `cores` as `parallel.each` splits
        them (contiguous chunks), the rest on one core."""
        serial = self.cpu - sum(sum(piece) for piece in self.pieces)
        return serial + sum(_chunked_makespan(piece, cores) for piece in self.pieces)


def _chunked_makespan(costs: list[float], cores: int) -> float:
    if cores <= 1 or len(costs) < 2:
        return sum(costs)
    size = -(-len(costs) // cores)
    return max(sum(costs[start : start + size]) for start in range(0, len(costs), size))


class _Core:
    """One seat's machine on its own clock: the calls of its turn one after another,
    and the shuffle proofs it took on trust (SPEC §3.3) verified in the time its turn
    leaves idle (the session queues that check behind the call that took the proof on
    trust; a call that must come after it waits for it)."""

    def __init__(self) -> None:
        self.free = 0.0
        """When the turn's last call ends."""
        self.checks: list[list[float]] = []
        """Checks not yet done: [ready at, CPU left]."""

    def _idle(self, until: float) -> float:
        """Run the queued checks in the idle time from `free` to `until`; when the last
        of them to run stopped."""
        cursor = self.free
        while self.checks:
            ready, left = self.checks[0]
            begin = max(cursor, ready)
            if begin >= until:
                break
            run = min(left, until - begin)
            cursor = begin + run
            if run < left:
                self.checks[0][1] = left - run
                break
            self.checks.pop(0)
        return cursor

    def call(self, ready: float, cost: float, checked_first: bool) -> float:
        """A call of `cost` CPU that may start at `ready` (after every queued check if
        `checked_first`); when it ends."""
        if checked_first:
            begin = max(ready, self._idle(float("inf")))
        else:
            begin = max(ready, self.free)
            self._idle(begin)
        self.free = begin + cost
        return self.free


class _Call:
    """One seat's call in the trace: its cost, whether the proofs it took on trust are
    verified before it (anything but another seat's shuffle, SPEC §3.3), and the
    check of the proof it took on trust in it, if it took one."""

    def __init__(self, cost: _SeatCost, checked_first: bool, check: _SeatCost | None) -> None:
        self.cost, self.checked_first, self.check = cost, checked_first, check


class RoundStart:
    """A round's start (commits, proven shuffles, the deal) among in-process seats,
    timed as if each seat ran on its own machine: every call is timed by the calling
    thread's CPU, with the per-process cache of verified proofs forgotten first
    (another machine has not seen them).

    Each seat has its own clock (`_Core`): a message reaches it at the later of its
    sending and the seat's clock. The log runs one step at a time: a step commits
    once every seat has ACKed it (a seat that took a shuffle on its form, the next
    shuffler, verifies its proof in its idle time, before it handles anything else
    than a shuffle: SPEC §3.3), and the next step is proposed once its proposer has
    made it and holds that commit. The critical path is when the last step commits.
    """

    def __init__(self) -> None:
        self.trace: list[tuple[str, int, int | None, dict[int, _Call]]] = []
        """Each step: its phase (``shuffles``: commits, the chain of proven shuffles;
        ``deal``: the shares of the first hands and the upcard), its sender, the trace
        index of the call that made it (None: a request of the game), each seat's call."""
        self._current: _SeatCost | None = None

    def critical_s(self, cores: int = 1, phase: str | None = None) -> float:
        """When the last step (of `phase`, if given; the deal counted from the end of
        the shuffles) commits, the proofs' pieces split over `cores` per seat."""
        players = 1 + max(seat for *_, calls in self.trace for seat in calls)
        machines = [_Core() for _ in range(players)]
        ended: dict[tuple[int, int], float] = {}
        committed = 0.0
        until: dict[str, float] = {}
        for index, (of, sender, made_by, calls) in enumerate(self.trace):
            if made_by is None:  # a request of the game, made of every seat at once
                for seat, call in calls.items():
                    ended[(index, seat)] = self._run(machines[seat], committed, call, cores)
                continue
            proposed = max(ended[(made_by, sender)], committed)
            acks = [proposed]
            for seat, call in calls.items():
                ended[(index, seat)] = self._run(machines[seat], proposed, call, cores)
                acks.append(ended[(index, seat)])
            committed = max(acks)
            until[of] = committed
        if phase is None:
            return committed
        if phase == "shuffles":
            return until.get("shuffles", 0.0)
        return until.get(phase, 0.0) - until.get("shuffles", 0.0)

    @staticmethod
    def _run(machine: _Core, ready: float, call: _Call, cores: int) -> float:
        end = machine.call(ready, call.cost.on(cores), call.checked_first)
        if call.check is not None:
            machine.checks.append([end, call.check.on(cores)])
        return end

    def cpu_s(self) -> float:
        return sum(
            call.cost.cpu + (call.check.cpu if call.check is not None else 0.0)
            for *_, calls in self.trace
            for call in calls.values()
        )

    def _each(self, function: Callable[[T], R], items: Iterable[T], cores: int = 1) -> list[R]:
        pieces: list[float] = []
        results = []
        for item in items:
            started = time.thread_time()
            results.append(function(item))
            pieces.append(time.thread_time() - started)
        if self._current is not None:
            self._current.pieces.append(pieces)
        return results

    def _timed(self, call: Callable[[], list[bytes]]) -> tuple[_SeatCost, list[bytes]]:
        from p2p_rommy.deck.proofs import forget_verified

        forget_verified()
        cost = self._current = _SeatCost()
        started = time.thread_time()
        out = call()
        cost.cpu = time.thread_time() - started
        self._current = None
        return cost, out

    def _traced(
        self, seat: DeckSeat, call: Callable[[], list[bytes]], checked_first: bool
    ) -> tuple[_Call, list[bytes]]:
        """A seat's call, then the check of any proof it took on trust in it, timed
        apart (the check runs on the seat's own clock in its idle time)."""
        before = len(seat.deferred)
        cost, out = self._timed(call)
        check = None
        if len(seat.deferred) > before:
            check, _ = self._timed(partial(_check_deferred, seat))
        return _Call(cost, checked_first, check), out

    def run(self, players: int, cards: int) -> None:
        import hashlib
        from collections import deque

        from p2p_rommy.deck import ALL, DeckParams, parallel
        from p2p_rommy.deck.messages import Shuffle, decode
        from p2p_rommy.wire.identity import Identity, open_envelope

        game = hashlib.sha256(b"bench %d %d" % (players, cards)).digest()
        params = DeckParams(game, 0, players, 0, cards)
        identities = [Identity.generate() for _ in range(players)]
        keys = [identity.public_key for identity in identities]
        seats = [DeckSeat(params, s, identities[s], keys) for s in range(players)]
        queue: deque[tuple[int, int, bytes]] = deque()
        parallel_each = parallel.each
        setattr(parallel, "each", self._each)  # noqa: B010 - timed piece by piece, restored below
        try:

            def everyone(call: Callable[[DeckSeat], list[bytes]], phase: str) -> None:
                calls: dict[int, _Call] = {}
                made_by = len(self.trace)
                for seat in seats:
                    traced, out = self._traced(seat, partial(call, seat), True)
                    traced.checked_first = bool(out)  # its shares: on checked proofs only
                    calls[seat.seat] = traced
                    queue.extend((seat.seat, made_by, envelope) for envelope in out)
                self.trace.append((phase, -1, None, calls))
                while queue:
                    sender, made_by, envelope = queue.popleft()
                    opened = open_envelope(envelope, seats[0].roster)
                    trusted = isinstance(decode(opened.body, opened.seat), Shuffle)
                    index = len(self.trace)
                    calls = {}
                    for seat in seats:
                        if seat.seat != sender:
                            receive = partial(seat.receive, envelope)
                            traced, out = self._traced(seat, receive, not trusted)
                            calls[seat.seat] = traced
                            queue.extend((seat.seat, index, reply) for reply in out)
                    self.trace.append((phase, sender, made_by, calls))

            everyone(lambda seat: seat.start(), "shuffles")
            hand = min(11 if cards >= 100 else 7, (cards - 1) // players)
            deal = [(position, position % players) for position in range(hand * players)]
            everyone(lambda seat: seat.deal([*deal, (hand * players, ALL)]), "deal")
        finally:
            setattr(parallel, "each", parallel_each)  # noqa: B010
        assert all(seat.idle for seat in seats)


def _check_deferred(seat: DeckSeat) -> list[bytes]:
    seat.check_deferred()
    return []


def _deck(quick: bool) -> Figures:
    """What a round's start costs: its critical path with each seat on its own core (and
    with the proofs' work over the deck on a pool of 2 and 4 cores), each seat's CPU,
    all by CPU time, and split into its two phases (`shuffles`: the commits and the
    chain of proven, checked shuffles; `deal`: the first hands' shares); and one
    110-card shuffle's proof and check alone. Every `units` figure is in yardsticks:
    multiplications of the fixed yardstick measured in the same run."""
    unit, yardstick = _unit_costs(300 if quick else 2000)
    figures: Figures = {
        "deck.unit_us": round(unit * 1e6, 2),
        "deck.unit_ed25519_us": round(yardstick * 1e6, 2),
    }
    cases = [(3, 12)] if quick else [(4, 108), (6, 110)]
    for players, cards in cases:
        name = f"deck.round_start.{players}x{cards}"
        timing = RoundStart()
        timing.run(players, cards)
        figures[f"{name}.critical_s"] = round(timing.critical_s(), 3)
        figures[f"{name}.critical_s.pool2"] = round(timing.critical_s(2), 3)
        figures[f"{name}.critical_s.pool4"] = round(timing.critical_s(4), 3)
        figures[f"{name}.cpu_per_seat_s"] = round(timing.cpu_s() / players, 3)
        figures[f"{name}.critical_units"] = round(timing.critical_s() / yardstick)
        figures[f"{name}.critical_units.pool2"] = round(timing.critical_s(2) / yardstick)
        for phase in ("shuffles", "deal"):
            figures[f"{name}.critical_units.{phase}"] = round(
                timing.critical_s(phase=phase) / yardstick
            )
    cards = 12 if quick else 110
    prove_s, verify_s = _one_shuffle(cards)
    figures[f"deck.shuffle_{cards}.prove_ms"] = round(prove_s * 1000, 2)
    figures[f"deck.shuffle_{cards}.verify_ms"] = round(verify_s * 1000, 2)
    figures[f"deck.shuffle_{cards}.prove_units"] = round(prove_s / yardstick)
    figures[f"deck.shuffle_{cards}.verify_units"] = round(verify_s / yardstick)
    return figures


def _one_shuffle(cards: int, runs: int = 5) -> tuple[float, float]:
    """CPU seconds of one shuffle's proof (with its deck-free part) and of its check,
    on one core, each the fastest of `runs`."""
    import hashlib

    from p2p_rommy.deck import group, parallel
    from p2p_rommy.deck.derive import permutation_from_stream
    from p2p_rommy.deck.proofs import (
        ShuffleContext,
        forget_verified,
        prove_shuffle,
        shuffle,
        verify_shuffle,
    )
    from p2p_rommy.wire.entropy import StreamEntropy

    inp = tuple(group.hash_to_point(b"bench card %d" % i) for i in range(cards))
    scalar = group.scalar_reduce(hashlib.sha512(b"bench scalar").digest())
    key = group.mul_base(scalar)
    permutation = permutation_from_stream(b"bench permutation", cards)
    out = shuffle(scalar, permutation, inp)
    context = ShuffleContext(bytes(32), 0, 0, 0, bytes(32))
    proves, verifies = [], []
    parallel_each = parallel.each
    setattr(parallel, "each", lambda f, items: [f(i) for i in items])  # noqa: B010 - one core
    try:
        for run in range(runs):
            started = time.thread_time()
            proof = prove_shuffle(
                context, scalar, key, permutation, inp, out, StreamEntropy(b"bench %d" % run)
            )
            proves.append(time.thread_time() - started)
            forget_verified()
            started = time.thread_time()
            verify_shuffle(context, key, inp, out, proof)
            verifies.append(time.thread_time() - started)
    finally:
        setattr(parallel, "each", parallel_each)  # noqa: B010
    return min(proves), min(verifies)


class CommitLatencies:
    """A peer `StepClock`: seconds from each seat's proposal to that step's commit at
    the same seat."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self._proposed: dict[tuple[int, int], float] = {}

    def watch(self, seat: int) -> _SeatClock:
        return _SeatClock(self, seat)


class _SeatClock:
    def __init__(self, latencies: CommitLatencies, seat: int) -> None:
        self.owner, self.seat = latencies, seat

    def proposed(self, n: int, now: float) -> None:
        self.owner._proposed[(self.seat, n)] = now

    def committed(self, n: int, now: float) -> None:
        started = self.owner._proposed.pop((self.seat, n), None)
        if started is not None:
            self.owner.latencies.append(now - started)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _peers(quick: bool) -> Figures:
    """Commit latency among 6 peers on loopback, a whole lp match of 4, one peer's memory."""
    import asyncio
    import sys
    import tempfile
    from pathlib import Path

    from p2p_rommy.seat.loopback_match import measure_resume, simulate_network

    figures: Figures = {}
    house = {"target_score": "10"} if quick else {"target_score": "60"}
    clock = CommitLatencies()
    asyncio.run(simulate_network("rummy", 6, 7, house, step_clock=clock))
    latencies = clock.latencies
    figures["peers.commit_latency_ms.p50"] = round(_percentile(latencies, 0.5) * 1000, 2)
    figures["peers.commit_latency_ms.p99"] = round(_percentile(latencies, 0.99) * 1000, 2)
    if not quick:
        started = time.perf_counter()
        asyncio.run(simulate_network("lp", 4, 3, {}))
        figures["peers.lp4_match_s"] = round(time.perf_counter() - started, 2)
    with tempfile.TemporaryDirectory() as directory:
        resume = measure_resume(Path(directory), "lp" if not quick else "rummy", 4)
        figures["peers.resume_s"] = round(asyncio.run(resume), 3)
    with tempfile.TemporaryDirectory() as directory:
        args = ["--interface", "127.0.0.1", "--bot", "random"]
        base = [sys.executable, "-m", "p2p_rommy"]
        table = f"bench-{time.time_ns()}"
        host = subprocess.Popen(
            [
                *base,
                "host",
                "--table",
                table,
                "--variant",
                "lp",
                "--start-when",
                "3",
                *args,
                "--data-dir",
                f"{directory}/a",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.5)
        joins = [
            subprocess.Popen(
                [*base, "join", table, *args, "--data-dir", f"{directory}/{n}"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for n in ("b", "c")
        ]
        peaks = _watch_peaks([host, *joins], timeout=900)
    # each peer's own high-water mark (VmHWM, reset at exec), not the parent's inherited
    figures["peers.peak_rss_mib.max"] = round(max(peaks), 1)
    figures["peers.peak_rss_mib.min"] = round(min(peaks), 1)
    figures["peers.flood_rss_mb"] = round(flood_growth_mb(2_000 if quick else 20_000), 1)
    return figures


def _watch_peaks(processes: list[subprocess.Popen[bytes]], timeout: float) -> list[float]:
    """Wait for the processes, reading each one's own peak resident memory (MiB) from
    /proc as it runs; the last reading before it exits is its peak."""
    peaks = [0.0] * len(processes)
    deadline = time.monotonic() + timeout
    while any(process.poll() is None for process in processes):
        if time.monotonic() > deadline:
            for process in processes:
                process.kill()
            raise TimeoutError("the bench's peers did not finish their match")
        for index, process in enumerate(processes):
            peaks[index] = max(peaks[index], _peak_mib(process.pid))
        time.sleep(0.1)
    return peaks


def _peak_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass  # it has just exited
    return 0.0


def _rss_mb() -> float:
    """This process's resident memory now, in MiB (from /proc)."""
    import os

    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def flood_growth_mb(count: int) -> float:
    """The largest growth of this process's memory while a seated peer takes `count` each
    of future ACKs, future buy answers, catch-up asks and chat lines from another seat,
    and while a lobby creator takes a member's flood of 60 KB messages."""
    import asyncio

    from p2p_rommy.log.messages import Ack, BuyAnswer, Chat, Sync
    from p2p_rommy.log.peer import Peer
    from p2p_rommy.log.seated_replica import SeatedReplica
    from p2p_rommy.seat.loopback_match import seeded_config

    before = _rss_mb()
    grown = 0.0
    config, identities = seeded_config("rummy", 3, {}, 1)
    peer = Peer(SeatedReplica(config, 1, identities[1]))
    game, sign = config.game_id, identities[2].sign
    for i in range(count):
        now = i / 1000
        for message in (
            Ack(game, 100 + i, 2, bytes(32), bytes(32)),
            BuyAnswer(game, 100 + i, 2, True),
            Sync(game, 2, 0, True),
            Chat(game, 2, f"flood {i}"),
        ):
            peer.receive(sign(message.encode()), now, 2)
        if i % 1000 == 0:
            grown = max(grown, _rss_mb() - before)
    grown = max(grown, _rss_mb() - before)
    asyncio.run(_lobby_flood(count // 20))
    return max(grown, _rss_mb() - before)


async def _lobby_flood(messages: int) -> None:
    """A member sends `messages` signed 60 KB lobby messages to a creator."""
    import asyncio

    from p2p_rommy.net.framing import frame
    from p2p_rommy.net.handshake import handshake
    from p2p_rommy.net.lobby import MESSAGE, LobbyHost, TableSettings, join_entry
    from p2p_rommy.rules.variants import ruleset
    from p2p_rommy.wire.codec import pack
    from p2p_rommy.wire.identity import Identity

    rules = ruleset("rummy")
    settings = TableSettings("Flood", "rummy", rules.house.values, rules.max_players)
    host = LobbyHost(Identity.generate(), "Ann", settings, [], "127.0.0.1", None, advertise=False)
    await host.listen("127.0.0.1")
    flooder = Identity.generate()
    reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
    await handshake(reader, writer, flooder, host.lobby, lambda key: True)
    writer.write(frame(MESSAGE + join_entry(flooder, host.lobby, "Mal", [])))
    big = frame(MESSAGE + flooder.sign(pack({"kind": "lobby/chatter", "pad": bytes(60_000)})))
    try:
        for _ in range(messages):
            writer.write(big)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    writer.close()
    await host.close()


class _Timed:
    """Wraps a bot to time its decisions by the CPU of the calling thread (another
    process on a loaded machine does not count; a bot's work does)."""

    def __init__(self, bot: Player, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def choose(self, view: View) -> Move:
        started = time.thread_time()
        move = self.bot.choose(view)
        self.times.append(time.thread_time() - started)
        return move

    def wants_buy(self, view: View) -> bool | None:
        started = time.thread_time()
        answer = self.bot.wants_buy(view)
        self.times.append(time.thread_time() - started)
        return answer


BOT_SEATS = 3
"""Every line-up is three players: the measured bot and two of its opponent."""
BOT_LINEUPS = (
    ("hard", "normal"),
    ("normal", "easy"),
    ("hard", "easy"),
    ("hard", "reference"),
    ("normal", "reference"),
    ("easy", "reference"),
)
BOT_SEEDS = {"lp": 50, "rummy": 60, "romme": 40}
"""Deals per variant and line-up; each is played three times, the measured bot in each
seat, so the matches are three times as many (enough for a share near 0.45 to show its
interval above 1/3). ``--quick``: a fifth."""
BOT_FIRST_DEAL = 5000
TIMED_LEVELS = ("easy", "normal", "hard", "reference")


def wilson(wins: float, count: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share."""
    if count == 0:
        return 0.0, 1.0
    share = wins / count
    denominator = 1 + z * z / count
    centre = (share + z * z / (2 * count)) / denominator
    half = z * ((share * (1 - share) / count + z * z / (4 * count * count)) ** 0.5) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def bot_match(task: tuple[str, str, str, int, int]) -> tuple[float, dict[str, list[float]]]:
    """One engine-only match (``rommy simulate --no-network``'s path): the first bot's
    share of the win (ties split) and every timed decision by level."""
    from p2p_rommy.bots import make_bot
    from p2p_rommy.engine.scoring import winners

    variant, first, other, seed, seat = task
    rules = ruleset(variant)
    rng = random.Random(seed)
    kinds = [other] * BOT_SEATS
    kinds[seat] = first
    # Each seat's bot has its own generator, drawn in seat order whatever the line-up.
    seeds = [rng.getrandbits(64) for _ in kinds]
    times: dict[str, list[float]] = {kind: [] for kind in set(kinds)}
    players: list[Player] = [
        _Timed(make_bot(kind, random.Random(bot_seed)), times[kind])
        for kind, bot_seed in zip(kinds, seeds, strict=True)
    ]
    final = play_match(rules, players, rng, seed % BOT_SEATS).final
    best = winners(rules, final.scores)
    return (1 / len(best) if seat in best else 0.0), times


def _bots(quick: bool, select: str = "bots") -> Figures:
    """Each level against the others and against the frozen reference player: the
    first bot's win share and its 95% Wilson interval (fair share 1/3), over the same
    seeded deals for every line-up with the seats rotated; decision times by level.
    `select` keeps the line-ups whose figure names start with it (``bots.lp``,
    ``bots.romme.hard_vs_normal``): the whole section is over an hour of CPU."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    figures: Figures = {}
    times: dict[str, list[float]] = {level: [] for level in TIMED_LEVELS}
    tasks = []
    for variant, seeds in BOT_SEEDS.items():
        for first, other in BOT_LINEUPS:
            if not f"bots.{variant}.{first}_vs_{other}".startswith(select):
                continue
            for deal in range(max(2, seeds // 5) if quick else seeds):
                for seat in range(BOT_SEATS):
                    tasks.append((variant, first, other, BOT_FIRST_DEAL + deal, seat))
    if not tasks:
        raise ConfigError(N_("no bots line-up {select!r}").format(select=select))
    workers = max(1, min(4, os.cpu_count() or 1))
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(bot_match, tasks, chunksize=4))
    shares: dict[tuple[str, str, str], list[float]] = {}
    for (variant, first, other, _seed, _seat), (share, match_times) in zip(
        tasks, results, strict=True
    ):
        shares.setdefault((variant, first, other), []).append(share)
        for level, values in match_times.items():
            times[level] += values
    for (variant, first, other), values in shares.items():
        low, high = wilson(sum(values), len(values))
        name = f"bots.{variant}.{first}_vs_{other}"
        figures[f"{name}.share"] = round(sum(values) / len(values), 3)
        figures[f"{name}.low95"] = round(low, 3)
        figures[f"{name}.high95"] = round(high, 3)
        figures[f"{name}.matches"] = len(values)
    for level, values in times.items():
        if values:
            figures[f"bots.decision_ms.{level}.p50"] = round(_percentile(values, 0.5) * 1000, 2)
            figures[f"bots.decision_ms.{level}.p99"] = round(_percentile(values, 0.99) * 1000, 2)
            figures[f"bots.decision_ms.{level}.max"] = round(max(values) * 1000, 2)
    figures.update(kob_race(KOB_WINDOWS // 5 if quick else KOB_WINDOWS))
    return figures


KOB_WINDOWS = 2000
"""Contested Køb! windows per bot level in the bench's race."""


def kob_race(windows: int) -> Figures:
    """How often a prompt person (`PROMPT_PERSON_S`) wins a contested Køb! against each
    bot level at a table of four: the person and the bot call, each seat's observation
    is the order the calls reached it (`KOB_HOP_S` a hop), and the production rule
    (`log/buy_race.py`) picks the winner from the four signed observations."""
    from p2p_rommy.bots import make_bot
    from p2p_rommy.bots.reaction import Reacting
    from p2p_rommy.limits import PROMPT_PERSON_S
    from p2p_rommy.log.buy_race import race
    from p2p_rommy.log.messages import BuyAnswer

    person, bot = 1, 2  # seat 0 discarded, seat 3 declined; the person sits nearest
    figures: Figures = {}
    for level in ("easy", "normal", "hard"):
        wins = 0
        for window in range(1, windows + 1):
            player = make_bot(level, random.Random(5000 + window))
            assert isinstance(player, Reacting)
            called = {person: PROMPT_PERSON_S, bot: player.call_after_s(window)}
            answers = [
                BuyAnswer(b"", window, seat, seat in called, _observed(called, seat))
                for seat in range(4)
            ]
            wins += race(answers, (person, bot)).order[0] == person
        figures[f"bots.kob.prompt_person_vs_{level}.wins"] = round(wins / windows, 3)
    return figures


def _observed(called: dict[int, float], seat: int) -> tuple[int, ...]:
    """The order in which the calls (caller -> when) reached `seat`; a caller lists
    what reached it before its own call, then itself."""

    from p2p_rommy.limits import KOB_HOP_S

    def reached(caller: int) -> float:
        return called[caller] + (0.0 if caller == seat else KOB_HOP_S)

    seen = sorted(called, key=lambda caller: (reached(caller), caller))
    if seat in called:
        seen = [caller for caller in seen if reached(caller) <= called[seat]]
    return tuple(seen)


def _verify(quick: bool) -> Figures:
    """`rommy verify` on a whole transcript (a 4-player lp match), run as a player runs
    it, in a process of its own: its CPU seconds (from the kernel's account of that
    process), and the same in multiplications of the fixed yardstick measured here."""
    import asyncio
    import os
    import sys
    import tempfile
    from pathlib import Path

    from p2p_rommy.log.transcript import parse
    from p2p_rommy.seat.loopback_match import simulate_network
    from p2p_rommy.wire.codec import unpack

    variant, players, house = ("rummy", 3, {"target_score": "20"}) if quick else ("lp", 4, {})
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "transcript"
        asyncio.run(simulate_network(variant, players, 5, house, path))
        parsed = parse(path.read_bytes())
        process = subprocess.Popen(
            [sys.executable, "-m", "p2p_rommy", "verify", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"rommy verify exited {process.returncode} on a fair match")
    cpu = usage.ru_utime + usage.ru_stime
    envelopes = players  # the genesis signatures
    for record in parsed.records:
        envelopes += 1 + len(record.acks)
        body = unpack(unpack(record.step)[2])["body"]
        envelopes += sum(1 for key in ("envelope", "reveal") if isinstance(body.get(key), bytes))
        envelopes += len(body.get("answers", []))
    unit, yardstick = _unit_costs(500)
    name = "verify.rummy3_match" if quick else "verify.lp4_match"
    return {
        f"{name}.cpu_s": round(cpu, 2),
        f"{name}.units": round(cpu / yardstick),
        "verify.unit_us": round(unit * 1e6, 2),
        "verify.unit_ed25519_us": round(yardstick * 1e6, 2),
        "verify.envelopes": envelopes,
    }


# --- the simulator (issue 31) ---------------------------------------------------------

SIM_GAMES = 200
"""Games ``rommy bench --only sim`` plays unless told (``--games``); 20 with ``--quick``."""
SIM_SHOWN = 10
"""Failing games whose schedules the sim section prints (on stderr)."""


def _sim(quick: bool, games: int | None = None, long: bool = False) -> Figures:
    """Whole simulated tables (`p2p_rommy/sim`) with every fault and cheat drawn from
    the seed: games per second of this process's CPU, and what broke, by invariant
    (`long`: with long absences in a tenth of the games, as CI's campaign draws them)."""
    import sys

    from p2p_rommy.sim import Spec, run_game
    from p2p_rommy.sim.plan import LONG_S, LONG_SHARE
    from p2p_rommy.sim.runner import INVARIANTS

    count = games if games is not None else (20 if quick else SIM_GAMES)
    broken = dict.fromkeys(INVARIANTS, 0)
    faults = adversary_games = steps = long_games = 0
    started = time.process_time()
    for seed in range(count):
        spec = Spec.draw(seed, long_share=LONG_SHARE if long else 0.0)
        outcome = run_game(spec, verify_share=0.1)
        faults += outcome.faults
        adversary_games += outcome.spec.adversary is not None
        long_games += any(fault.duration > LONG_S[0] / 2 for fault in spec.faults)
        steps += outcome.steps
        for violation in outcome.violations:
            broken[violation.invariant] += 1
        if outcome.violations and sum(broken.values()) <= SIM_SHOWN:
            # the schedule, to replay (and shrink: `sim/shrink.py`)
            print(f"sim: {outcome.spec.line()} -> {outcome.violations[0].line()}", file=sys.stderr)
    cpu = time.process_time() - started
    figures: Figures = {
        "sim.games": count,
        "sim.games_per_cpu_s": round(count / cpu, 2) if cpu else 0.0,
        "sim.steps_per_game": round(steps / max(count, 1), 1),
        "sim.faults": faults,
        "sim.adversary_games": adversary_games,
        "sim.long_absence_games": long_games,
        "sim.violations": sum(broken.values()),
    }
    figures.update({f"sim.violations.{name}": n for name, n in broken.items()})
    return figures


SECTIONS: dict[str, Callable[[bool], Figures]] = {
    "engine": _engine,
    "deck": _deck,
    "peers": _peers,
    "bots": _bots,
    "verify": _verify,
    "sim": _sim,
}


def run_bench(
    only: str | None = None, quick: bool = False, games: int | None = None, long: bool = False
) -> Figures:
    """Run one section or all of them (`games`: how many the sim section plays; `long`:
    a tenth of them with a long absence, `sim.plan.LONG_SHARE`)."""
    if only is not None and only.startswith("bots."):
        return _bots(quick, only)
    if only is not None and only not in SECTIONS:
        raise ConfigError(
            N_("no bench section {only!r}; the sections are: {sections}").format(
                only=only, sections=", ".join(SECTIONS)
            )
        )
    figures: Figures = {}
    for name, section in SECTIONS.items():
        if name == "sim" and (only is None or only == name):
            figures.update(_sim(quick, games, long))
        elif only is None or only == name:
            figures.update(section(quick))
    return figures


def units_note() -> str:
    """What every ``units`` figure counts, said beside the figures (table and JSON)."""
    return _(
        "units: yardsticks, each one checked edwards25519 multiplication "
        "(libsodium) timed in this run"
    )


def format_table(figures: Figures) -> str:
    width = max((len(key) for key in figures), default=10)
    lines = [f"{key:<{width}}  {value:>14,}" for key, value in sorted(figures.items())]
    if any("units" in key for key in figures):
        lines.append(units_note())
    return "\n".join(lines)


def as_json(figures: Figures) -> dict[str, float | str]:
    """The figures for ``--json``, with a ``units`` entry saying what the ``*units``
    figures count whenever there are any."""
    shown: dict[str, float | str] = dict(figures)
    if any("units" in key for key in figures):
        shown["units"] = units_note()
    return shown
