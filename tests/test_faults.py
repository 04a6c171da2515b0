"""Whole matches through a fault-injecting TCP proxy on every link (frames dropped,
duplicated, delayed, reordered; connections cut): the peers resend and resync, the
match finishes, and every transcript is the same and verifies."""

from __future__ import annotations

import asyncio
import random

import pytest

from p2p_rommy.bots import make_bot
from p2p_rommy.seat.loopback_match import seeded_config
from p2p_rommy.verify import verify_transcript
from p2p_rommy.wire.entropy import StreamEntropy
from tests.fault_proxy import FaultProxy, Faults


async def faulty_match(
    variant: str, house: dict[str, str], seed: int, faults: Faults, loopback_table, transcript
):
    config, identities = seeded_config(variant, 3, house, seed)
    proxies = []

    async def behind_a_proxy(seat: int, real: tuple[str, int]) -> tuple[str, int]:
        if seat == 2:
            return real
        proxy = FaultProxy(real, faults, seed=seed * 10 + seat)  # seats 0 and 1 are dialled
        proxies.append(proxy)
        return await proxy.listen()

    sessions = await loopback_table(
        config,
        identities,
        entropy=lambda seat: StreamEntropy(b"faults %d" % seat),
        # heuristic bots: a round of a third of the steps random bots take, so a third of
        # the lost frames to wait out (each costs a resync); the faults are the point
        player=lambda seat: make_bot("normal", random.Random(seat)),
        address=behind_a_proxy,
    )
    try:
        async with asyncio.timeout(400):
            while not all(s.peer.replica.over or s.peer.frozen for s in sessions):
                await asyncio.sleep(0.05)
    finally:
        for session in sessions:
            await session.close()
        for proxy in proxies:
            await proxy.close()
    transcripts = [transcript(config, identities, s.peer.records) for s in sessions]
    counts = sum((proxy.counts for proxy in proxies), start=proxies[0].counts.__class__())
    return sessions, transcripts, counts


@pytest.mark.parametrize(
    ("variant", "house", "seed"),
    [("rummy", {"target_score": "1"}, 5), ("romme", {"fixed_deals": "1"}, 6)],
    ids=["rummy", "romme"],
)
def test_a_match_through_lossy_links_finishes_without_divergence(
    variant, house, seed, loopback_table, transcript
):
    sessions, transcripts, counts = asyncio.run(
        faulty_match(variant, house, seed, Faults(cut_at=150), loopback_table, transcript)
    )
    assert all(s.peer.frozen is None for s in sessions), [s.peer.frozen for s in sessions]
    assert all(s.peer.replica.over for s in sessions)
    assert transcripts[0] == transcripts[1] == transcripts[2]
    report = verify_transcript(transcripts[0])
    assert report.fair and report.finished, report.text()
    for fault in ("dropped", "duplicated", "reordered", "cut"):
        assert counts[fault] > 0, counts  # every kind of fault really happened
    assert counts["connections"] > 2  # cut connections were dialed again
