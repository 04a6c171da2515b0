"""Client issue: the deal screen gives an estimate from the deal's own pace."""

from __future__ import annotations

from p2p_rommy.engine.due import Due, DueKind
from p2p_rommy.i18n import Phrase
from p2p_rommy.tui.deal_estimate import DealEstimate


def due(kind: DueKind, left: int) -> Due:
    return Due(1, kind, Phrase.of("x"), left=left)


def test_the_estimate_follows_the_pace_of_the_shuffles_then_of_the_cards():
    clock = DealEstimate()
    assert clock.seconds_left(0.0, due(DueKind.SHUFFLE, 4)) is None  # nothing measured yet
    assert clock.seconds_left(1.0, due(DueKind.SHUFFLE, 4)) is None
    # one shuffle took 2 s: three more to go, the current one started just now
    assert clock.seconds_left(2.0, due(DueKind.SHUFFLE, 3)) == 6.0
    assert clock.seconds_left(3.0, due(DueKind.SHUFFLE, 3)) == 5.0  # 1 s into this one
    assert clock.seconds_left(4.0, due(DueKind.SHUFFLE, 2)) == 2.0 * 2
    assert clock.seconds_left(30.0, due(DueKind.SHUFFLE, 2)) == 0.0  # never negative
    # the cards are another kind of work: measured afresh
    assert clock.seconds_left(31.0, due(DueKind.SHARES, 30)) is None
    assert clock.seconds_left(31.5, due(DueKind.SHARES, 20)) == 1.0
    # a move is not a deal; a later deal starts from nothing
    assert clock.seconds_left(40.0, Due(0, DueKind.MOVE, Phrase.of("y"))) is None
    assert clock.seconds_left(41.0, due(DueKind.SHUFFLE, 3)) is None


def test_a_new_pass_starts_a_new_measure():
    clock = DealEstimate()
    clock.seconds_left(0.0, due(DueKind.SHUFFLE, 2))
    assert clock.seconds_left(10.0, due(DueKind.SHUFFLE, 1)) == 10.0
    assert clock.seconds_left(11.0, due(DueKind.SHUFFLE, 3)) is None  # the count went up
