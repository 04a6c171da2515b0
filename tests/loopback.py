"""Seeded peers seated on 127.0.0.1 over real TCP, and their transcript file: the start
of most network tests (`tests/conftest.py` offers both as fixtures)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from p2p_rommy.config import GameConfig
from p2p_rommy.engine.view import Player
from p2p_rommy.log.messages import Record
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.log.transcript import MAGIC, Genesis, frame_record, sign_config
from p2p_rommy.seat.session import Session
from p2p_rommy.wire.identity import Entropy, Identity

CLEAN_RUMMY = ("rummy", 3, 21, {"target_score": "15"})
"""The clean match the `clean_rummy` fixture plays: variant, seats, seed, house rules."""


async def seat_on_loopback(
    config: GameConfig,
    identities: Sequence[Identity],
    *,
    entropy: Callable[[int], Entropy],
    player: Callable[[int], Player | None],
    replica: Callable[[GameConfig, int, Identity, Entropy], SeatedReplica] = SeatedReplica,
    peer: Callable[[SeatedReplica, Player | None], Peer] = Peer,
    session: Callable[[Peer, GameConfig], Session] = Session,
    address: Callable[[int, tuple[str, int]], Awaitable[tuple[str, int]]] | None = None,
    start: bool = True,
) -> list[Session]:
    """A session for every seat of `config` — its replica (deck randomness from
    `entropy(seat)`), its `player(seat)` — listening on 127.0.0.1 and dialling the
    others; started unless `start` is False. `replica`, `peer` and `session` build each
    part (a test puts a cheat there); `address(seat, real)` may put something in front
    of a seat's listening address (a fault proxy)."""
    sessions = [
        session(peer(replica(config, seat, identities[seat], entropy(seat)), player(seat)), config)
        for seat in range(config.players)
    ]
    addresses = {}
    for seat, each in enumerate(sessions):
        real = await each.listen("127.0.0.1", 0)
        addresses[seat] = [real if address is None else await address(seat, real)]
    for each in sessions:
        each.connect(addresses)
    if start:
        for each in sessions:
            each.start()
    return sessions


def transcript_of(
    config: GameConfig, identities: Sequence[Identity], records: Sequence[Record]
) -> bytes:
    """The transcript file of a game whose every seat signed `config` (SPEC §4.8)."""
    signatures = tuple(sign_config(config, identity) for identity in identities)
    genesis = Genesis(config, config.encode(), signatures)
    return (
        MAGIC
        + frame_record(genesis.encode())
        + b"".join(frame_record(record.encode()) for record in records)
    )
