"""Meld reading and finding: ambiguous selections, joker meanings, the meld finder."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_rommy.cards import composition
from p2p_rommy.rules import ruleset
from p2p_rommy.rules.finder import candidate_melds, find_opening
from p2p_rommy.rules.melds import Meld, MeldKind, Placed, interpretations, joker_targets
from tests.helpers import cards_of

LP, RUMMY, ROMME = ruleset("lp"), ruleset("rummy"), ruleset("romme")


def pairs(tokens: str, size: int = 108) -> list[tuple[int, int]]:
    return [(p.slot, p.card) for p in cards_of(tokens, size)]


def test_a_natural_and_jokers_is_ambiguous_and_every_reading_is_listed():
    # RULES-DECISIONS: "7♠ + 3 jokers is a set and a run ... the player declares it"
    readings = interpretations(pairs("7S JK JK JK"), composition(108), LP)
    kinds = [kind for kind, _ in readings]
    assert kinds.count(MeldKind.SET) == 1
    runs = [cards for kind, cards in readings if kind is MeldKind.RUN]
    assert {tuple(p.rank for p in run) for run in runs} == {
        (4, 5, 6, 7),
        (5, 6, 7, 8),
        (6, 7, 8, 9),
        (7, 8, 9, 10),
    }


def test_ace_and_jokers_reads_low_or_high():
    # RULES-DECISIONS: "A + 3 jokers is A-2-3-4 or J-Q-K-A"
    runs = [
        c
        for k, c in interpretations(pairs("AH JK JK JK"), composition(108), LP)
        if k is MeldKind.RUN
    ]
    assert {tuple(p.rank for p in run) for run in runs} == {(1, 2, 3, 4), (11, 12, 13, 14)}
    low_only = [c for k, c in interpretations(pairs("AH 2H 3H", 52), composition(52), RUMMY)]
    assert [tuple(p.rank for p in run) for run in low_only] == [(1, 2, 3)]


def test_an_unambiguous_run_has_one_reading():
    readings = interpretations(pairs("4D 5D JK 7D"), composition(108), LP)
    assert len(readings) == 1 and [p.rank for p in readings[0][1]] == [4, 5, 6, 7]


def test_joker_targets():
    deck = composition(108)
    run = Meld(
        MeldKind.RUN,
        0,
        tuple(Placed(i, c.card, c.rank) for i, c in enumerate(cards_of("JH QH KH AH:14"))),
    )
    assert joker_targets(run, deck, LP) == [10]
    full = Meld(MeldKind.SET, 0, cards_of("9C 9D 9S 9H"))
    assert joker_targets(full, deck, LP) == []


def test_finder_finds_the_contract():
    deck = composition(108)
    hand = pairs("7H 7S 7D 9C 9D JK 2S 5S 8S JS 3H")
    found = find_opening(candidate_melds(hand, deck, LP), deck, LP, round_index=0)
    assert found and all(c.kind is MeldKind.SET for c in found[0]) and len(found[0]) == 2
    assert not find_opening(candidate_melds(hand, deck, LP), deck, LP, round_index=2)


def test_finder_finds_a_forty_point_opening():
    deck = composition(110)
    hand = pairs("KS KH KD 5H 6H 7H 2C", 110)
    found = find_opening(candidate_melds(hand, deck, ROMME), deck, ROMME, 0)
    assert found
    hand = pairs("KS KH KD 2H 3H 9C", 110)
    assert not find_opening(candidate_melds(hand, deck, ROMME), deck, ROMME, 0)


def _brute_force_melds(hand, deck, rules):
    """Every subset of 3+ cards that has some valid reading (the finder's ground truth)."""
    found = set()
    for size in range(3, len(hand) + 1):
        for subset in itertools.combinations(hand, size):
            if interpretations(list(subset), deck, rules):
                found.add(frozenset(slot for slot, _ in subset))
    return found


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["lp", "rummy", "romme"]))
def test_finder_misses_no_natural_meld_of_a_small_hand(seed, variant):
    """Without jokers every valid meld of a small hand appears among the candidates,
    or is a longer stretch the candidates cover (runs are listed per stretch)."""
    rules = ruleset(variant)
    deck = composition(rules.deck_size)
    rng = random.Random(seed)
    naturals = [i for i, card in enumerate(deck.cards) if not card.is_joker]
    hand = [(slot, card) for slot, card in enumerate(rng.sample(naturals, 7))]
    truth = _brute_force_melds(hand, deck, rules)
    listed = {c.slots for c in candidate_melds(hand, deck, rules)}
    assert listed <= truth  # everything listed is valid
    for meld in truth:
        assert meld in listed, f"missed {[deck.card(c).notation() for s, c in hand if s in meld]}"
