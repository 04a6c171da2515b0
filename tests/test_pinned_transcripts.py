"""House issue: refactoring must not change behaviour. The transcript bytes of seeded
games are pinned: Løbere og Passere with 3 seats (its first round), Rummy with 4 and
Rommé with 6 (whole short matches). Seeds, bots and deliveries are fixed (FIFO, in one
process), so a changed hash means a changed protocol or rule — on purpose (then update
the pin, and say so in the commit) or by mistake."""

from __future__ import annotations

import hashlib

import pytest

from tools.vectors import deliver, table_of

PINNED = {
    "lp/3": "5e6ac64da76a46480f39f25ef82202061f86e2d601b625feaee0bd09381d8652",
    "rummy/4": "5750e02f55e42c4a035cf6b78cf96d4d1c56cb42d572e22ddf9a7c899058dbba",
    "romme/6": "c0d2618bb3a400245fb7a4c49b643277ad1beac9f43dd14eb3bbf9df4e510b4c",
}


def transcript_hash(variant: str, players: int, house: tuple, rounds: int | None) -> str:
    config, peers = table_of(variant, players, house, label=f"pin {variant} {players}")

    def done() -> bool:
        replica = peers[0].replica
        return replica.over or (rounds is not None and replica.state.round_index >= rounds)

    deliver(peers, done, limit=200_000)
    records = peers[0].records
    assert records and all(p.records == records for p in peers if p.replica.n == peers[0].replica.n)
    digest = hashlib.sha256(config.encode())
    for record in records:
        digest.update(record.encode())
    return digest.hexdigest()


@pytest.mark.parametrize(
    ("name", "variant", "players", "house", "rounds"),
    [
        ("lp/3", "lp", 3, (), 1),
        ("rummy/4", "rummy", 4, (("target_score", 1),), None),
        ("romme/6", "romme", 6, (("fixed_deals", 1),), None),
    ],
)
def test_seeded_transcripts_are_pinned(name, variant, players, house, rounds):
    assert transcript_hash(variant, players, house, rounds) == PINNED[name]
