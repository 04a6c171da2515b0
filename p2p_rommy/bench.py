"""``rommy bench``: performance figures, measured in this run, by section.

Each section returns a flat dict of ``section.name`` -> number. Cost figures are
given as ratios against a floor measured in the same run (the deck set-up's wall
time against the scalar multiplications it must do), so they mean the same on
a slow machine and a fast one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from p2p_rommy.engine.apply import apply, new_game
from p2p_rommy.engine.moves import Move
from p2p_rommy.engine.state import GameState
from p2p_rommy.engine.view import Player, View
from p2p_rommy.errors import ConfigError
from p2p_rommy.rules.variants import RuleSet, ruleset
from p2p_rommy.simulate import play_match, random_players

Figures = dict[str, float]


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
    for _ in range(repeats):
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
    """Seconds per variable-base and per fixed-base scalar multiplication, on fresh points."""
    import hashlib

    from p2p_rommy.deck import group

    points = [group.from_uniform(hashlib.sha256(b"bench%d" % i).digest()) for i in range(samples)]
    scalars = [group.hash_to_scalar(b"bench scalar", i.to_bytes(4, "big")) for i in range(samples)]
    started = time.perf_counter()
    for scalar, point in zip(scalars, points, strict=True):
        group.mul(scalar, point)
    variable = (time.perf_counter() - started) / samples
    started = time.perf_counter()
    for scalar in scalars:
        group.mul_base(scalar)
    fixed = (time.perf_counter() - started) / samples
    return variable, fixed


class _CountingGroup:
    """Counts the deck layer's scalar multiplications while a bench case runs."""

    def __init__(self) -> None:
        from p2p_rommy.deck import group

        self.group = group
        self.variable = 0
        self.fixed = 0
        self._mul = group.mul
        self._mul_base = group.mul_base

    def __enter__(self) -> _CountingGroup:
        def mul(scalar: bytes, point: bytes) -> bytes:
            self.variable += 1
            return self._mul(scalar, point)

        def mul_base(scalar: bytes) -> bytes:
            self.fixed += 1
            return self._mul_base(scalar)

        setattr(self.group, "mul", mul)  # noqa: B010 - patched for the count, restored on exit
        setattr(self.group, "mul_base", mul_base)  # noqa: B010
        return self

    def __exit__(self, *exc: object) -> None:
        self.group.mul, self.group.mul_base = self._mul, self._mul_base


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


def deck_setup(players: int, cards: int, lam: int = 64) -> None:
    """A round's set-up among in-process seats: commits, proven shuffles, the deal."""
    import hashlib
    from collections import deque

    from p2p_rommy.deck import ALL, DeckParams, DeckSeat
    from p2p_rommy.wire.identity import Identity

    game = hashlib.sha256(b"bench %d %d" % (players, cards)).digest()
    params = DeckParams(game, 0, players, 0, cards, lam)
    identities = [Identity.generate() for _ in range(players)]
    keys = [identity.public_key for identity in identities]
    seats = [DeckSeat(params, s, identities[s], keys) for s in range(players)]
    queue: deque[tuple[int, bytes]] = deque()

    def everyone(call: Callable[[DeckSeat], list[bytes]]) -> None:
        for seat in seats:
            queue.extend((seat.seat, envelope) for envelope in call(seat))
        while queue:
            sender, envelope = queue.popleft()
            for seat in seats:
                if seat.seat != sender:
                    queue.extend((seat.seat, out) for out in seat.receive(envelope))

    everyone(lambda seat: seat.start())
    hand = min(11 if cards >= 100 else 7, (cards - 1) // players)
    deal = [(position, position % players) for position in range(hand * players)]
    everyone(lambda seat: seat.deal([*deal, (hand * players, ALL)]))
    assert all(seat.idle for seat in seats)


def _deck(quick: bool) -> Figures:
    """Round set-up cost against the floor of the scalar multiplications it must do."""
    variable_unit, fixed_unit = _unit_costs(200 if quick else 1000)
    figures: Figures = {
        "deck.scalarmult_us": round(variable_unit * 1e6, 2),
        "deck.scalarmult_base_us": round(fixed_unit * 1e6, 2),
    }
    cases = [(3, 12)] if quick else [(4, 108), (6, 110)]
    for players, cards in cases:
        name = f"{players}x{cards}"
        with _CountingGroup() as counted:
            started = time.perf_counter()
            deck_setup(players, cards)
            wall = time.perf_counter() - started
        floor = counted.variable * variable_unit + counted.fixed * fixed_unit  # one core
        figures[f"deck.setup.{name}.mults"] = counted.variable + counted.fixed
        figures[f"deck.setup.{name}.wall_s"] = round(wall, 3)
        figures[f"deck.setup.{name}.ratio"] = round(wall / floor, 3)
    return figures


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _peers(quick: bool) -> Figures:
    """Commit latency among 6 peers on loopback, a whole lp match of 4, one peer's memory."""
    import asyncio
    import resource
    import subprocess
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
        for process in [host, *joins]:
            process.wait(timeout=900)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    figures["peers.peak_rss_mb"] = round(peak_kb / 1024, 1)
    figures["peers.flood_rss_mb"] = round(flood_growth_mb(2_000 if quick else 20_000), 1)
    return figures


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
    from p2p_rommy.log.replica import SeatedReplica
    from p2p_rommy.seat.loopback_match import seeded_config

    before = _rss_mb()
    grown = 0.0
    config, identities = seeded_config("rummy", 3, {}, 1)
    peer = Peer(SeatedReplica(config, 1, identities[1]))
    game, sign = config.game_id, identities[2].sign
    for i in range(count):
        now = i / 1000
        for message in (
            Ack(game, 100 + i, 2, bytes(32)),
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
    settings = TableSettings("Flood", "rummy", rules.house.values, 64, rules.max_players)
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
    """Wraps a bot to time its decisions."""

    def __init__(self, bot: Player, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def choose(self, view: View) -> Move:
        started = time.perf_counter()
        move = self.bot.choose(view)
        self.times.append(time.perf_counter() - started)
        return move

    def wants_buy(self, view: View) -> bool | None:
        return self.bot.wants_buy(view)


BOT_TABLES = {"lp": 4, "rummy": 3, "romme": 4}


def _bots(quick: bool) -> Figures:
    """Bot strength (engine only, fixed seeds) and decision times."""
    from p2p_rommy.bots import make_bot
    from p2p_rommy.engine.scoring import winners

    matches = {"lp": 6, "rummy": 20, "romme": 8} if quick else {"lp": 40, "rummy": 200, "romme": 60}
    figures: Figures = {}
    times: dict[str, list[float]] = {"easy": [], "normal": [], "hard": []}

    def play(variant: str, kinds: list[str], seed: int) -> tuple[RuleSet, GameState]:
        rules = ruleset(variant)
        rng = random.Random(seed)
        bots = [make_bot(kind, random.Random(rng.getrandbits(64))) for kind in kinds]
        players: list[Player] = [
            _Timed(p, times[k]) if k in times else p for p, k in zip(bots, kinds, strict=True)
        ]
        return rules, play_match(rules, players, rng, seed % len(kinds)).final

    for variant, seats in BOT_TABLES.items():
        count = matches[variant]
        wins = 0
        for match in range(count):
            seat = match % seats
            kinds = ["random"] * seats
            kinds[seat] = "normal"
            rules, final = play(variant, kinds, 1000 + match)
            winner = winners(rules, final.scores)
            wins += winner == [seat]
        figures[f"bots.{variant}.normal_vs_random_win_rate"] = round(wins / count, 3)
        deltas = []
        for match in range(max(4, count // 4)):
            seat = match % seats
            kinds = ["normal"] * seats
            kinds[seat] = "hard"
            _, final = play(variant, kinds, 2000 + match)
            others = [final.scores[s] for s in range(seats) if s != seat]
            deltas.append(final.scores[seat] - sum(others) / len(others))
        figures[f"bots.{variant}.hard_vs_normal_mean_score_delta"] = round(
            sum(deltas) / len(deltas), 1
        )
        seat_wins = [0] * seats
        games = max(seats * 2, count // 2)
        for match in range(games):
            rules, final = play(variant, ["normal"] * seats, 3000 + match)
            for best in winners(rules, final.scores):
                seat_wins[best] += 1
        figures[f"bots.{variant}.seat_balance_max_dev"] = round(
            max(abs(w / games - 1 / seats) for w in seat_wins), 3
        )
        for match in range(2):  # the easy level's decision times
            play(variant, ["easy"] + ["random"] * (seats - 1), 4000 + match)
    for level, values in times.items():
        figures[f"bots.decision_ms.{level}.p50"] = round(_percentile(values, 0.5) * 1000, 2)
        figures[f"bots.decision_ms.{level}.p99"] = round(_percentile(values, 0.99) * 1000, 2)
    return figures


def _verify(quick: bool) -> Figures:
    """Verifying a whole transcript against the floor of the work it must do: every
    scalar multiplication (counted) and every Ed25519 signature check (one per envelope)."""
    import asyncio
    import tempfile
    from pathlib import Path

    from p2p_rommy.deck.proofs import forget_verified
    from p2p_rommy.log.transcript import parse
    from p2p_rommy.seat.loopback_match import simulate_network
    from p2p_rommy.verify import verify_transcript
    from p2p_rommy.wire.codec import unpack
    from p2p_rommy.wire.identity import (
        Identity,
        forget_verified_signatures,
        open_envelope,
        roster_of,
    )

    variant, players, house = ("rummy", 3, {"target_score": "20"}) if quick else ("lp", 4, {})
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "transcript"
        asyncio.run(simulate_network(variant, players, 5, house, path))
        data = path.read_bytes()
    parsed = parse(data)
    envelopes = players  # the genesis signatures
    for record in parsed.records:
        envelopes += 1 + len(record.acks)
        body = unpack(unpack(record.step)[2])["body"]
        envelopes += sum(1 for key in ("envelope", "reveal") if isinstance(body.get(key), bytes))
        envelopes += len(body.get("answers", []))
    variable_unit, fixed_unit = _unit_costs(500)
    signer = Identity.generate()
    sealed = signer.sign(b"x" * 200)
    roster = roster_of([signer.public_key])
    started = time.perf_counter()
    for _ in range(500):
        open_envelope(sealed, roster)
    signature_unit = (time.perf_counter() - started) / 500
    forget_verified()  # the match just played checked these proofs in this process
    forget_verified_signatures()  # and these signatures
    with _CountingGroup() as counted:
        started = time.perf_counter()
        report = verify_transcript(data)
        wall = time.perf_counter() - started
    assert report.fair, report.verdict()
    floor = (
        counted.variable * variable_unit + counted.fixed * fixed_unit + envelopes * signature_unit
    )
    name = "verify.rummy3_match_s" if quick else "verify.lp4_match_s"
    return {
        name: round(wall, 2),
        "verify.ratio": round(wall / floor, 3),
        "verify.mults": counted.variable + counted.fixed,
        "verify.signatures": envelopes,
    }


SECTIONS: dict[str, Callable[[bool], Figures]] = {
    "engine": _engine,
    "deck": _deck,
    "peers": _peers,
    "bots": _bots,
    "verify": _verify,
}


def run_bench(only: str | None = None, quick: bool = False) -> Figures:
    """Run one section or all of them."""
    if only is not None and only not in SECTIONS:
        raise ConfigError(f"no bench section {only!r}; the sections are: {', '.join(SECTIONS)}")
    figures: Figures = {}
    for name, section in SECTIONS.items():
        if only is None or only == name:
            figures.update(section(quick))
    return figures


def format_table(figures: Figures) -> str:
    width = max((len(key) for key in figures), default=10)
    return "\n".join(f"{key:<{width}}  {value:>14,}" for key, value in sorted(figures.items()))
