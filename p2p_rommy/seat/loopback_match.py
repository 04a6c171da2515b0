"""``rommy simulate`` over the real thing: bot peers, each with its own TCP listener on
127.0.0.1, the full deck protocol and consensus on every step, in one process.

Seeded: identities, the bots' choices and the deck randomness all come from the
seed, so a run can be repeated. (Real games take their randomness from the
operating system.)
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from pathlib import Path
from typing import Protocol

from p2p_rommy.bots import make_bot
from p2p_rommy.bots.reaction import hurried
from p2p_rommy.config import GameConfig, Seat
from p2p_rommy.engine.due import mover
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.log.messages import Record
from p2p_rommy.log.transcript import MAGIC, Genesis, frame_record, sign_config
from p2p_rommy.log.voting import StepClock
from p2p_rommy.seat.opening import open_seat
from p2p_rommy.seat.session import Session
from p2p_rommy.seat.storage import GameStore
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import Identity

LOOPBACK = ("127.0.0.1", 0)
"""Every in-process seat listens on loopback, on a port of its own."""


def seeded_config(
    variant: str, players: int, house: dict[str, str], seed: int
) -> tuple[GameConfig, list[Identity]]:
    label = b"simulate %d" % seed
    identities = [Identity.generate(StreamEntropy(label + b" id %d" % s)) for s in range(players)]
    seats = tuple(
        Seat(f"Bot {s + 1}", identity.public_key) for s, identity in enumerate(identities)
    )
    nonce = hashlib.sha256(label).digest()[:16]
    config = GameConfig(
        variant,
        tuple(house.items()),
        seats,
        first_dealer=seed % players,
        table=f"simulate-{seed}",
        nonce=nonce,
    )
    return config, identities


class SeatClocks(Protocol):
    """Hands each seat of a match its own `StepClock`."""

    def watch(self, seat: int) -> StepClock: ...


class FirstProposal:
    """A `StepClock` that notes the peer's first proposal."""

    def __init__(self) -> None:
        self.seen = False

    def proposed(self, n: int, now: float) -> None:
        self.seen = True

    def committed(self, n: int, now: float) -> None:
        pass


async def simulate_network(
    variant: str,
    players: int,
    seed: int,
    house: dict[str, str],
    transcript: Path | None = None,
    timeout: float | None = None,
    bots: list[str] | None = None,
    step_clock: SeatClocks | None = None,
) -> tuple[GameState, list[Record], list[Session]]:
    """A whole match of bot seats in this process, over TCP on loopback; `step_clock`
    times every seat's steps (the bench)."""
    config, identities = seeded_config(variant, players, house, seed)
    rng = random.Random(seed)
    sessions = []
    for s in range(players):
        kind = bots[s] if bots else "random"
        bot = hurried(make_bot(kind, random.Random(rng.getrandbits(64))))
        entropy = StreamEntropy(b"simulate %d deck %d" % (seed, s))
        sessions.append(
            await open_seat(config, identities[s], bot, listen=LOOPBACK, entropy=entropy)
        )
    addresses = {s: [session.address] for s, session in enumerate(sessions)}
    for s, session in enumerate(sessions):
        session.connect(addresses)
        if step_clock is not None:
            session.peer.step_clock = step_clock.watch(s)

    def over(seat: int) -> bool:  # every seat is in this process: none waits for another
        return sessions[seat].peer.replica.over

    finals = await asyncio.gather(*(session.run(timeout, over) for session in sessions))
    frozen = [s.peer.frozen for s in sessions if s.peer.frozen]
    if frozen:
        raise RuntimeError(f"the table froze: {frozen[0]}")
    records = list(sessions[0].peer.records)
    if transcript is not None:
        genesis = Genesis(
            config, config.encode(), tuple(sign_config(config, i) for i in identities)
        )
        data = (
            MAGIC
            + frame_record(genesis.encode())
            + b"".join(frame_record(r.encode()) for r in records)
        )
        transcript.write_bytes(data)
    return finals[0], records, sessions


async def measure_resume(directory: Path, variant: str = "lp", players: int = 4) -> float:
    """Seconds from a restarted peer's start (reading its files, replaying its
    transcript) to its first proposal after catching up, in a match of bot peers on
    loopback where it crashed just before its turn."""
    config, identities = seeded_config(variant, players, {}, 5)
    genesis = Genesis(config, config.encode(), tuple(sign_config(config, i) for i in identities))
    victim = 1

    sessions = []
    for seat in range(players):
        store = GameStore(directory / str(seat), config.game_id)
        store.begin(genesis)
        entropy = StreamEntropy(b"resume bench %d" % seat)
        bot = make_bot("normal", random.Random(seat))
        sessions.append(
            await open_seat(
                config, identities[seat], bot, listen=LOOPBACK, store=store, entropy=entropy
            )
        )
    addresses = {s: [session.address] for s, session in enumerate(sessions)}
    for session in sessions:
        session.connect(addresses)
        session.start()
    before = (victim - 1) % players
    try:
        while True:
            state = sessions[victim].peer.replica.state
            if state.phase is Phase.PLAY and mover(state) == before and state.round_index == 1:
                break
            await asyncio.sleep(0.001)
        await sessions[victim].close()
        started = time.perf_counter()
        store = GameStore(directory / str(victim), config.game_id)
        bot = make_bot("normal", random.Random(victim))
        resumed = await open_seat(
            config,
            identities[victim],
            bot,
            listen=addresses[victim][0],
            addresses=addresses,
            store=store,
            saved=store.load(),
        )
        sessions[victim] = resumed
        proposed = FirstProposal()
        resumed.peer.step_clock = proposed
        resumed.start()
        while not proposed.seen:
            await asyncio.sleep(0.001)
        return time.perf_counter() - started
    finally:
        for session in sessions:
            await session.close()
