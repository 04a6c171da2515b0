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
    "lp/3": "d16392a724572e86e0dc0474b252406c61ab10e985e5e83a201a184af9b08572",
    "rummy/4": "6cbe3dcca8faa0f0126fe0dee5b38a0e1dc8a88acb43b8191723f44e1c7188a9",
    "romme/6": "abbc97c153a1dd9dc77a57e3b97baf0423e6328b9efc9a62147a7e81988836e9",
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
