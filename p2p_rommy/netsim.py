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

from p2p_rommy.bots import make_bot
from p2p_rommy.config import GameConfig, Seat
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.log.messages import Record
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.replica import SeatedReplica
from p2p_rommy.log.transcript import MAGIC, Genesis, frame_record, sign_config
from p2p_rommy.session import Session
from p2p_rommy.storage import GameStore
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import Identity


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


async def simulate_network(
    variant: str,
    players: int,
    seed: int,
    house: dict[str, str],
    transcript: Path | None = None,
    timeout: float | None = None,
    bots: list[str] | None = None,
) -> tuple[GameState, list[Record], list[Session]]:
    config, identities = seeded_config(variant, players, house, seed)
    rng = random.Random(seed)
    sessions = []
    for s in range(players):
        replica = SeatedReplica(
            config, s, identities[s], StreamEntropy(b"simulate %d deck %d" % (seed, s))
        )
        kind = bots[s] if bots else "random"
        peer = Peer(replica, make_bot(kind, random.Random(rng.getrandbits(64))))
        sessions.append(Session(peer, config))
    addresses = {}
    for s, session in enumerate(sessions):
        addresses[s] = [await session.listen("127.0.0.1", 0)]
    for session in sessions:
        session.connect(addresses)
    finals = await asyncio.gather(*(session.run(timeout) for session in sessions))
    frozen = [s.peer.frozen for s in sessions if s.peer.frozen]
    if frozen:
        raise RuntimeError(f"the table froze: {frozen[0]}")
    records = sessions[0].peer.records
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

    def session_for(
        seat: int, store: GameStore, replica: SeatedReplica, records: list[Record] | None = None
    ) -> Session:
        bot = make_bot("normal", random.Random(seat))
        return Session(Peer(replica, bot, records=records), config, store)

    sessions = []
    for seat in range(players):
        store = GameStore(directory / str(seat), config.game_id)
        store.begin(genesis)
        entropy = StreamEntropy(b"resume bench %d" % seat)
        sessions.append(
            session_for(seat, store, SeatedReplica(config, seat, identities[seat], entropy))
        )
    addresses = {s: [await session.listen("127.0.0.1", 0)] for s, session in enumerate(sessions)}
    for session in sessions:
        session.connect(addresses)
        session.start()
    before = (victim - 1) % players
    try:
        while True:
            state = sessions[victim].peer.replica.state
            if state.phase is Phase.PLAY and state.turn == before and state.round_index == 1:
                break
            await asyncio.sleep(0.001)
        await sessions[victim].close()
        started = time.perf_counter()
        store = GameStore(directory / str(victim), config.game_id)
        saved = store.load()
        replica = SeatedReplica(config, victim, identities[victim], seeds=saved.seeds)
        for record in saved.records:
            replica.restore(record.step, record.acks)
        resumed = session_for(victim, store, replica, saved.records)
        sessions[victim] = resumed
        await resumed.listen(*addresses[victim][0])
        resumed.connect(addresses)
        resumed.start()
        while resumed.peer.proposals == 0:
            await asyncio.sleep(0.001)
        return time.perf_counter() - started
    finally:
        for session in sessions:
            await session.close()
