"""Bounded issue: a seated peer flooded over real TCP by another seat — ACKs and buy
answers for far-future steps, catch-up asks, chat — keeps its memory within +20 MB and
its game going. The flood is refused message by message (bounded windows, token
buckets), and the mesh closes a link whose messages keep being refused."""

from __future__ import annotations

import asyncio
import random

from p2p_rommy.bench import flood_growth_mb
from p2p_rommy.bots import make_bot
from p2p_rommy.log.messages import Ack, BuyAnswer, Chat, Sync
from p2p_rommy.seat.loopback_match import seeded_config
from p2p_rommy.seat.session import Session
from p2p_rommy.wire.entropy import StreamEntropy
from tests.test_limits import rss_mb

FLOOD = 2000
"""Envelopes of each kind the flooder sends (in batches below the outbox cap)."""


async def flooded_match(loopback_table) -> tuple[list[Session], float, int]:
    config, identities = seeded_config("rummy", 3, {"target_score": "1"}, 8)
    sessions = await loopback_table(
        config,
        identities,
        entropy=lambda seat: StreamEntropy(b"flood %d" % seat),
        player=lambda seat: make_bot("random", random.Random(seat)),
    )
    victim, flooder = sessions[0], sessions[2]
    while len(victim.peer.records) < 3:
        await asyncio.sleep(0.05)
    before, grown = rss_mb(), 0.0
    game, sign = config.game_id, identities[2].sign
    kinds = (
        lambda i: Ack(game, 10_000 + i, 2, bytes(32), bytes(32)),
        lambda i: BuyAnswer(game, 10_000 + i, 2, True),
        lambda i: Sync(game, 2, 0, True),
        lambda i: Chat(game, 2, f"flood {i} " + "x" * 180),
    )
    for make in kinds:
        for start in range(0, FLOOD, 1000):
            flooder.mesh.send(0, [sign(make(i).encode()) for i in range(start, start + 1000)])
            await flooder.mesh.flushed(2.0)
            grown = max(grown, rss_mb() - before)
    async with asyncio.timeout(60):  # the victim takes the flood in its own time
        while victim.peer.trouble.refused_count < 20 and not victim.peer.replica.over:
            await asyncio.sleep(0.05)
            grown = max(grown, rss_mb() - before)
    refused = victim.peer.trouble.refused_count
    async with asyncio.timeout(300):
        while not all(s.peer.replica.over or s.peer.frozen for s in sessions):
            await asyncio.sleep(0.05)
    grown = max(grown, rss_mb() - before)
    for session in sessions:
        await session.close()
    return sessions, grown, refused


def test_a_seat_flooded_over_tcp_keeps_its_memory_and_its_game(loopback_table):
    sessions, grown, refused = asyncio.run(flooded_match(loopback_table))
    assert grown < 20, grown
    assert refused >= 20  # the flood was refused (and the link cut after MAX_STRIKES)
    assert all(s.peer.frozen is None for s in sessions), [s.peer.frozen for s in sessions]
    assert all(s.peer.replica.over for s in sessions)
    assert sessions[0].peer.records == sessions[1].peer.records == sessions[2].peer.records
    assert len(sessions[0].peer.chat.lines) <= 500


def test_the_peer_core_keeps_nothing_of_a_flood_it_refuses():
    """The same floods straight into a peer's `receive` (no mesh to cut them off):
    20,000 of each kind, as `rommy bench --only peers` measures them."""
    assert flood_growth_mb(20_000) < 20
