"""Whole rounds of the deck protocol among in-process seats that only exchange envelopes.

The deal follows the engine's layout (hands one card at a time from the left of
the dealer, then the upcard shown to all), then draws, a discard shown to all, a
reshuffled stock, the seed reveals and the audit.
"""

from __future__ import annotations

import hashlib

import pytest

from p2p_rommy.deck import ALL, DeckParams, DeckPhase, audit_round
from p2p_rommy.engine import StartRound, apply, new_game
from p2p_rommy.engine.apply import upcard_slot
from p2p_rommy.rules import ruleset
from tests.deck_table import DeckTable
from tests.helpers import deal_positions


def play_round(variant: str, players: int, dealer: int = 1):
    rules = ruleset(variant)
    game = hashlib.sha256(b"round test " + variant.encode()).digest()
    params = DeckParams(game, 0, players, dealer, rules.deck_size)
    table = DeckTable(params, seed=variant.encode())
    table.start()
    hands = deal_positions(rules, players, dealer)
    upcard = upcard_slot(rules, players)
    deal = [(position, seat) for seat, slots in hands.items() for position in slots]
    table.everyone(lambda seat: seat.deal([*deal, (upcard, ALL)]))
    dealt = {seat: set(slots) for seat, slots in hands.items()}
    shown = {upcard}
    # the engine starts the round from the card the deck protocol turned up
    state = apply(new_game(rules, players, dealer), StartRound(table.seats[0].public[upcard]))
    assert all(seat.public[upcard] == state.faces[upcard] for seat in table.seats)
    first = state.turn
    stock_top = upcard + 1
    table.everyone(lambda seat: seat.draw(stock_top, first))
    dealt[first].add(stock_top)
    discard = min(dealt[first])
    table.everyone(lambda seat: seat.reveal(first, [discard]))
    shown.add(discard)
    # the discard pile is shuffled into a new stock: fresh labels, new keys
    recycled = [table.seats[0].public[upcard], table.seats[0].public[discard]]
    table.everyone(lambda seat: seat.rebuild(rules.deck_size, recycled))
    table.everyone(lambda seat: seat.draw(rules.deck_size, (first + 1) % players))
    dealt[(first + 1) % players].add(rules.deck_size)
    return table, params, dealt, shown, recycled


@pytest.mark.parametrize(("variant", "players"), [("lp", 3), ("rummy", 4), ("romme", 6)])
def test_full_round_every_seat_learns_exactly_its_cards(variant, players):
    table, params, dealt, shown, recycled = play_round(variant, players)
    for seat in table.seats:
        assert set(seat.known) == dealt[seat.seat] | shown, "a seat knows a face it was not given"
        assert set(seat.public) == shown
        assert seat.idle
    table.everyone(lambda seat: seat.finish())
    assert all(seat.phase is DeckPhase.DONE for seat in table.seats)
    report = audit_round(params, table.public_keys, table.log, [recycled])
    assert report.fair and report.complete, report.findings
    for seat in table.seats:
        for position, card in seat.known.items():
            assert report.cards[position] == card
    # every card of the deck is somewhere, once
    first_pass = [report.cards[p] for p in range(params.deck_size)]
    assert sorted(first_pass) == list(range(params.deck_size))
    assert report.shuffles[: params.players] == [(0, s) for s in params.shuffle_order()]
