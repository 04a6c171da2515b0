"""Bots: the meld finder's best lay-down is optimal on small hands (against brute
force), every level finishes matches in every variant, and normal beats random."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_rommy.bots import make_bot, parse_bots
from p2p_rommy.bots.heuristic import HeuristicBot
from p2p_rommy.cards import composition
from p2p_rommy.engine.scoring import winners
from p2p_rommy.errors import ConfigError
from p2p_rommy.rules import ruleset
from p2p_rommy.rules.finder import best_laydown, candidate_melds
from p2p_rommy.rules.melds import interpretations
from p2p_rommy.simulate import play_match


def brute_force_left(hand, deck, rules) -> int:
    """The fewest points a hand can keep, trying every way to split off valid melds."""
    points = {slot: rules.points(deck.card(card).rank) for slot, card in hand}
    melds = [
        frozenset(slot for slot, _ in subset)
        for size in range(3, len(hand) + 1)
        for subset in itertools.combinations(hand, size)
        if interpretations(list(subset), deck, rules)
    ]
    best = sum(points.values())

    def search(start: int, used: frozenset[int]) -> None:
        nonlocal best
        best = min(best, sum(p for s, p in points.items() if s not in used))
        for index in range(start, len(melds)):
            if not melds[index] & used:
                search(index + 1, used | melds[index])

    search(0, frozenset())
    return best


@settings(max_examples=120, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["lp", "rummy", "romme"]), st.integers(4, 8))
def test_best_laydown_matches_brute_force_on_small_hands(seed, variant, size):
    rules = ruleset(variant)
    deck = composition(rules.deck_size)
    rng = random.Random(seed)
    # bias toward hands that hold melds: pick from few ranks and suits, jokers included
    pool = [
        i
        for i, c in enumerate(deck.cards)
        if c.is_joker or (c.rank in (1, 2, 3, 4, 5, 12, 13) and c.suit.value in "SH")
    ]
    hand = list(enumerate(rng.sample(pool, size)))
    _, left = best_laydown(candidate_melds(hand, deck, rules), hand, deck, rules, budget=10**6)
    assert left == brute_force_left(hand, deck, rules)


@pytest.mark.parametrize("variant", ["lp", "rummy", "romme"])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_finishes_a_match(variant, level):
    rules = ruleset(variant, {"fixed_deals": 2} if variant == "romme" else None)
    seats = 3
    rng = random.Random(5)
    players = [make_bot(level, random.Random(s)) for s in range(seats)]
    final = play_match(rules, players, rng).final
    assert final.phase.value == "match_over"


@pytest.mark.parametrize(("variant", "seats", "matches"), [("rummy", 3, 12), ("romme", 3, 6)])
def test_normal_beats_random_players(variant, seats, matches):
    """A small, fast sample; `rommy bench --only bots` measures the real rate."""
    rules = ruleset(variant)
    wins = 0
    for match in range(matches):
        rng = random.Random(match)
        kinds = ["random"] * seats
        kinds[match % seats] = "normal"
        players = [make_bot(kind, random.Random(rng.getrandbits(32))) for kind in kinds]
        final = play_match(rules, players, rng, match % seats).final
        wins += winners(rules, final.scores) == [match % seats]
    assert wins >= matches - 1


def test_bot_kinds_parse():
    assert parse_bots("normal,random,random", 3) == ["normal", "random", "random"]
    assert parse_bots("hard", 4) == ["hard"] * 4
    with pytest.raises(ConfigError, match="the bots are"):
        parse_bots("clever", 2)
    with pytest.raises(ConfigError, match="3 bots for 2 players"):
        parse_bots("easy,easy,easy", 2)
    with pytest.raises(ValueError):
        HeuristicBot("genius")


def test_a_bot_does_not_take_the_discard_for_ever():
    """Found live: three normal bots in lp's last round passed 7♣ round the table for
    13 minutes (each took it and threw it back; lp lets a taken card be discarded), a
    26,000-step transcript and no end. After three discards taken in a row without
    melding, a bot draws from the stock."""
    from p2p_rommy.engine.moves import DrawStock, TakeDiscard
    from tests.helpers import scripted_table

    table = scripted_table("rummy", 3, {1: "7S 7H 2D 4C 9H JS KD"}, upcard="7D")
    view = table.view(1)
    bot = HeuristicBot("normal", random.Random(1))
    chosen = [type(bot.choose(view)) for _ in range(5)]  # the same offer, turn after turn
    assert chosen[:4] == [TakeDiscard, TakeDiscard, TakeDiscard, DrawStock], chosen
    assert chosen[4] is TakeDiscard  # drawing from the stock starts the count again
