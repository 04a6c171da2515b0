"""Whole matches among bot peers over real TCP on 127.0.0.1: handshakes, the mesh, the
deck protocol and consensus on every step. Every peer ends with the same transcript."""

from __future__ import annotations

import asyncio
import time

import pytest

from p2p_rommy.engine.state import Phase
from p2p_rommy.log.messages import Ack, Step, decode
from p2p_rommy.log.transcript import parse
from p2p_rommy.seat.loopback_match import simulate_network
from p2p_rommy.verify import verify_transcript
from p2p_rommy.wire.identity import open_envelope, roster_of

CASES = [
    # lp's seven rounds: heuristic bots go out in a third of the steps random ones take
    ("lp", 3, {}, "normal"),
    ("rummy", 4, {"target_score": "40"}, "random"),
    ("romme", 6, {"fixed_deals": "1"}, "random"),
]


@pytest.mark.parametrize(("variant", "players", "house", "bot"), CASES, ids=[c[0] for c in CASES])
def test_full_match_over_loopback(tmp_path, variant, players, house, bot):
    path = tmp_path / "transcript"
    final, records, sessions = asyncio.run(
        simulate_network(variant, players, 11, house, path, timeout=600, bots=[bot] * players)
    )
    assert final.phase is Phase.MATCH_OVER
    assert all(s.peer.frozen is None for s in sessions)
    assert all(s.peer.records == records for s in sessions)  # byte-identical transcripts
    assert all(not s.peer.trouble.refused for s in sessions), [
        s.peer.trouble.refused for s in sessions
    ]
    parsed = parse(path.read_bytes())
    assert parsed.torn is None and parsed.records == records
    roster = roster_of(parsed.genesis.config.public_keys)
    for n, record in enumerate(parsed.records, start=1):
        step = decode(open_envelope(record.step, roster).body)
        assert isinstance(step, Step) and step.n == n
        acks = [decode(open_envelope(a, roster).body) for a in record.acks]
        assert [a.seat for a in acks] == list(range(players))
        assert all(isinstance(a, Ack) and a.n == n for a in acks)
        assert len({a.state for a in acks}) == 1  # everyone signed the same state
    report = verify_transcript(path.read_bytes())  # rommy verify: a clean game is FAIR
    assert report.fair and report.finished and report.steps == len(records), report.text()
    assert len(report.rounds) == len(final.round_scores)


class LastCommit:
    """A `StepClock` for every seat that notes when the last step committed anywhere."""

    def __init__(self) -> None:
        self.at = 0.0

    def watch(self, seat: int) -> LastCommit:
        return self

    def proposed(self, n: int, now: float) -> None:
        pass

    def committed(self, n: int, now: float) -> None:
        self.at = time.monotonic()


def test_in_one_process_the_seats_leave_as_soon_as_the_match_is_over():
    """The seats of `rommy simulate` (all in this process) left only when `Mesh.flushed`
    gave up, 10 s after the match: the first seat to finish closes its connections, and
    the last words the others queued for it (SPEC §4.4) were never written. A seat of
    the same process whose match is over needs nothing more: they all leave at once."""
    clock = LastCommit()
    asyncio.run(simulate_network("rummy", 3, 5, {"target_score": "1"}, step_clock=clock))
    assert clock.at and time.monotonic() - clock.at < 5.0
