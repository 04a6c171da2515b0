"""`legal_moves` lists every lay-off the rules accept, and only those: compared with every
(meld, card, rank) tried through `apply`, in states bots reach in whole matches. The
list skips a set's natural cards of another rank before checking them (issue #31's CPU
work); this says nothing legal is lost by it."""

from __future__ import annotations

import random

import pytest

from p2p_rommy.bots import make_bot
from p2p_rommy.cards import ACE, ACE_HIGH
from p2p_rommy.engine.apply import apply
from p2p_rommy.engine.due import mover
from p2p_rommy.engine.legal import legal_moves
from p2p_rommy.engine.moves import LayOff
from p2p_rommy.engine.state import Phase
from p2p_rommy.engine.table import OpenTable
from p2p_rommy.errors import IllegalMove
from p2p_rommy.rules import ruleset
from p2p_rommy.rules.melds import Placed
from p2p_rommy.simulate import play_match

STATES_CHECKED = 40
"""States with melds on the table compared per match (each tries every lay-off)."""


def every_lay_off(table: OpenTable, seat: int) -> set[LayOff]:
    """Every lay-off of the seat's hand that `apply` accepts, found by trying them all."""
    state = table.state
    accepted = set()
    for index in range(len(state.melds)):
        for slot, card in table.view(seat).hand():
            for rank in range(ACE, ACE_HIGH + 1):
                move = LayOff(seat, index, Placed(slot, card, rank))
                try:
                    apply(state, move)
                except IllegalMove:
                    continue
                accepted.add(move)
    return accepted


@pytest.mark.parametrize(("variant", "seed"), [("lp", 1), ("lp", 2), ("rummy", 1), ("romme", 1)])
def test_the_listed_lay_offs_are_exactly_the_legal_ones(variant, seed):
    rules = ruleset(variant, {})
    rng = random.Random(seed)
    players = [make_bot("normal", random.Random(rng.getrandbits(64))) for _ in range(4)]
    compared = []

    def observe(table: OpenTable, move) -> None:
        state = table.state
        if len(compared) >= STATES_CHECKED or state.phase is not Phase.PLAY or not state.melds:
            return
        seat = mover(state)
        listed = {m for m in legal_moves(table.view(seat)) if isinstance(m, LayOff)}
        assert listed == every_lay_off(table, seat), (state.melds, table.view(seat).hand())
        compared.append(len(listed))

    play_match(rules, players, rng, 0, observe)
    assert len(compared) == STATES_CHECKED
    assert any(compared), "no state with a lay-off was compared"
