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
    "lp/3": "9b2b08181c151d4eff7fcfc418606235876f606352e6b04bd3fdd075fee19e60",
    "rummy/4": "192036a58041c66f696b58c21b140ac99e7ca1617b241b378bb2b115a875d4f9",
    "romme/6": "3a6d833b1a9c593e9289a6d87e5224d9a34557887003eaabfe1ded3bbc85d9df",
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
