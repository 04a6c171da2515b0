"""A peer opens each envelope once (issue #28, "decoded once"): on its receive path a
step, an ACK, a deck message inside a step and a Køb! answer or seal are opened (their
signature checked) and decoded when they arrive, and what later reads them (the buy
window's checks, the resolution carrying the answers, the committed record) takes them
as opened then. `tests/test_verify_once.py` holds the same for `rommy verify`."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import replace

import pytest

from p2p_rommy.deck import seat as deck_seat
from p2p_rommy.deck.seat import DeckSeat
from p2p_rommy.log import buy_checks, buying, certificates, replica
from p2p_rommy.log.messages import Ack
from p2p_rommy.log.replica import Replica
from p2p_rommy.sim import Spec, one_process
from p2p_rommy.sim.runner import Simulation
from p2p_rommy.wire import identity
from p2p_rommy.wire.codec import unpack


def _opener_seat() -> int:
    """The seat whose replica or deck seat is opening an envelope now (from the stack)."""
    frame = sys._getframe(2)
    while frame is not None:
        owner = frame.f_locals.get("self")
        if isinstance(owner, Replica | DeckSeat):
            return owner.seat
        frame = frame.f_back
    raise AssertionError("an envelope opened outside a seat")


@pytest.mark.parametrize(
    ("priority", "bot"),
    # normal bots think longer: answers to resync asks carry the step in flight, which
    # was opened a second time (found by the trim helper, session 16)
    [("first", "normal"), ("seat", "random")],
)
def test_each_peer_opens_each_envelope_once(monkeypatch, priority, bot):
    opened: Counter[tuple[int, bytes]] = Counter()
    real = identity.open_envelope

    def counted(data, roster):
        opened[(_opener_seat(), bytes(data))] += 1
        return real(data, roster)

    for module in (replica, buy_checks, certificates, buying, deck_seat):
        monkeypatch.setattr(module, "open_envelope", counted)
    # the simulator remembers opened envelopes across its seats (`sim/one_process.py`),
    # which would hide every opening but the first seat's: this test is about each peer
    monkeypatch.setattr(one_process, "_OPENERS", ())
    spec = replace(Spec(seed=3, variant="lp", bot=bot), house=(("buy_priority", priority),))
    simulation = Simulation(spec, verify_share=0.0)

    outcome = simulation.run()

    assert outcome.ok and outcome.end == "over", outcome.violations
    answers = [key for key in opened if _kind(key[1]) == "buy/answer"]
    assert answers, "no Køb! window was answered: the test proves nothing"
    assert len(opened) > 10 * outcome.steps
    assert max(opened.values()) == 1, Counter(opened.values())


def _kind(envelope: bytes) -> str:
    kind: str = unpack(unpack(envelope)[2])["kind"]
    return kind


def test_a_committed_record_carries_its_step_and_acks_as_they_were_checked():
    simulation = Simulation(Spec(seed=4), verify_share=0.0)
    outcome = simulation.run()
    assert outcome.ok
    peer = simulation.seats[0].peer
    assert peer is not None and len(peer.records) == outcome.steps
    recent = peer.records[len(peer.records) - peer.records.in_memory :]
    assert recent
    for record in recent:
        assert record.decoded is not None and record.votes is not None
        assert record.decoded == record.decoded_step()
        assert record.decoded.encode() == unpack(record.step)[2]
        for envelope, ack in zip(record.acks, record.votes, strict=True):
            assert isinstance(ack, Ack) and ack.encode() == unpack(envelope)[2]
