"""Rommé, table-driven. Each case cites the line of ``shared/rules/romme.da.txt``
(``romme:N``) or ``shared/RULES-DECISIONS.md``."""

from __future__ import annotations

import pytest

from p2p_rommy.cards import composition
from p2p_rommy.engine import DrawStock, Phase
from p2p_rommy.engine.scoring import hand_points, match_over, round_scores
from p2p_rommy.errors import ConfigError, IllegalMove
from p2p_rommy.rules import ruleset
from p2p_rommy.rules.melds import MeldKind, opening_value
from tests.helpers import cards_of, discard, draw, lay_down, lay_off, scripted_table

ROMME = ruleset("romme")
DECK = composition(110)


def dealt(seat0: str, house=None, stock: str = "2C 3C"):
    """4 players, seat 0 deals (14 cards) and starts."""
    return scripted_table(
        "romme",
        4,
        {0: seat0, 1: "2S 5S 8S JS 3H 6H 9H QH 4D 7D 10D KD 2C"},
        upcard="9C",
        stock=stock,
        house=house,
    )


def test_deal_thirteen_each_the_dealer_fourteen_and_starts_without_drawing():
    # romme:9 "110 kort i alt. Giv tretten kort til hver spiller; kortgiveren tager fjorten og
    # starter med at kaste af ... vend det øverste kort ved siden af"
    table = dealt("KS")
    state = table.state
    assert [len(hand) for hand in state.hands] == [14, 13, 13, 13]
    assert state.turn == 0 and state.phase is Phase.PLAY and len(state.discard) == 1
    with pytest.raises(IllegalMove, match="not possible now"):
        table.play(DrawStock(0))
    after = table.play(discard(table, 0, "KS"))
    assert after.state.turn == 1 and after.state.phase is Phase.DRAW


@pytest.mark.parametrize(
    ("kind", "tokens", "value"),
    [
        ("set", "KS KH KD", 30),  # romme:24 "Knægt, dame, konge: 10 hver"
        ("run", "AH 2H 3H", 6),  # romme:25 "1, når det bruges lavt i en es-to-tre-række"
        ("run", "QH KH AH:14", 31),  # romme:25 "Es: 11"
        ("set", "AS AH AD", 33),
        ("set", "KS KH JK:K", 30),  # romme:15 "tæller som det, den erstatter"
        ("run", "4H JK:5 6H", 15),
    ],
)
def test_opening_values(kind, tokens, value):
    cards = cards_of(tokens, 110)
    assert opening_value(MeldKind(kind), cards, DECK, ROMME) == value


def test_first_lay_down_must_be_worth_forty_at_once():
    # romme:15 "Dine allerførste meldinger i en given skal tilsammen være mindst 40 point lagt
    # på én gang"
    table = dealt("KS KH KD 5H 6H 7H 2S")
    with pytest.raises(IllegalMove, match=r"at least 40 points .* worth 30"):
        table.play(lay_down(table, 0, ("set", "KS KH KD")))
    after = table.play(lay_down(table, 0, ("set", "KS KH KD"), ("run", "5H 6H 7H")))
    assert after.state.opened[0]


def test_after_opening_build_and_lay_freely_in_the_same_turn():
    # romme:15 "Derefter må du bygge kort på alles meldinger og lægge frit ned"
    table = dealt("KS KH KD 5H 6H 7H 8H 2S 3S 4S")
    table = table.play(lay_down(table, 0, ("set", "KS KH KD"), ("run", "5H 6H 7H")))
    table = table.play(lay_off(table, 0, 1, "8H"))
    table = table.play(lay_down(table, 0, ("run", "2S 3S 4S")))
    assert len(table.state.melds) == 3


def test_lay_offs_do_not_count_toward_the_opening():
    # RULES-DECISIONS Rommé: "Lay-offs do not count toward the 40"
    table = dealt("KS KH KD 5H 6H 7H 8H")
    table = table.play(lay_down(table, 0, ("set", "KS KH KD"), ("run", "5H 6H 7H")))
    table = table.play(discard(table, 0, "8H"))
    table = draw(table, 1)
    from p2p_rommy.engine import LayOff
    from p2p_rommy.rules.melds import Placed

    slot = next(s for s in table.state.hands[1] if DECK.card(table.truth[s]).notation() == "KD")
    with pytest.raises(IllegalMove, match="must open"):
        table.play(LayOff(1, 0, Placed(slot, table.truth[slot], 13)))


def test_opening_naturals_only_house_rule():
    # romme:38 "strengere grupper kræver, at de 40 kommer fra naturlige kort alene"
    hand = "KS KH JK 4H 5H 6H"
    table = dealt(hand)
    melds = (("set", "KS KH JK:K"), ("run", "4H 5H 6H"))
    assert table.play(lay_down(table, 0, *melds)).state.opened[0]  # 30 + 15
    strict = dealt(hand, house={"opening_naturals_only": True})
    with pytest.raises(IllegalMove, match=r"from natural cards .* worth 35"):
        strict.play(lay_down(strict, 0, *melds))


def test_joker_swap_is_off_by_default():
    # RULES-DECISIONS Rommé: "Joker swap: off by default (not in the rule document); toggle"
    assert not ROMME.joker_swap and ruleset("romme", {"joker_swap": "on"}).joker_swap


@pytest.mark.parametrize(
    ("tokens", "points", "house"),
    [
        ("2S 10H", 12, {}),  # romme:23 "Kort 2 til 10: pålydende"
        ("JS QH KD", 30, {}),  # romme:24
        ("AS", 11, {}),  # romme:25 "Es: 11"
        ("JK", 20, {}),  # romme:26 "Joker: 20"
        ("JK", 25, {"joker_penalty": 25}),  # romme:38 "hæver joker-straffen til 25 eller 30"
        ("JK", 30, {"joker_penalty": 30}),
    ],
)
def test_penalty_in_hand(tokens, points, house):
    rules = ruleset("romme", house)
    assert hand_points([c.card for c in cards_of(tokens, 110)], DECK, rules) == points


def test_joker_penalty_only_20_25_30():
    with pytest.raises(ConfigError, match="20 or 25 or 30"):
        ruleset("romme", {"joker_penalty": "22"})


def test_winner_zero_or_a_negative_bonus():
    # romme:28 "Den, der gik ud, noterer som standard 0 — eller en negativ bonus"
    assert round_scores(ROMME, [0, 10, 20], [True] * 3, 0, False) == (0, 10, 20)
    bonus = ruleset("romme", {"winner_bonus": 10})
    assert round_scores(bonus, [0, 10, 20], [True] * 3, 0, False) == (-10, 10, 20)


def test_hand_romme_doubles_and_never_melded_stacks():
    # romme:30 "hånd-rommé — fordobles hver modstanders tal ... Er begge regler i spil, stakkes
    # de, så den spiller betaler fire gange sin kortværdi"
    assert round_scores(ROMME, [0, 10, 20], [True, True, False], 0, True) == (0, 20, 40)
    both = ruleset("romme", {"never_melded_doubles": True})
    assert round_scores(both, [0, 10, 20], [True, True, False], 0, True) == (0, 20, 80)
    assert round_scores(both, [0, 10, 20], [True, True, False], 0, False) == (0, 10, 40)


def test_hand_romme_in_play():
    # romme:30 the dealer goes out in the first turn having never melded before
    hand = "KS KH KD 5H 6H 7H 8H 2S 3S 4S 9D 9C 9S QC"
    table = dealt(hand)
    table = table.play(
        lay_down(
            table,
            0,
            ("set", "KS KH KD"),
            ("run", "5H 6H 7H 8H"),
            ("run", "2S 3S 4S"),
            ("set", "9D 9C 9S"),
        )
    )
    out = table.play(discard(table, 0, "QC"))
    assert out.state.closer == 0 and out.state.closer_at_once
    for reveal in out.pending_reveals():
        out = out.play(reveal)
    assert out.state.round_scores[0][1] == 2 * 86  # seat 1 held 2S..2C worth 86, doubled


def test_match_ends_at_the_target_or_after_fixed_deals():
    # romme:34 "så snart en spillers løbende total når 500, stopper spillet ... Alternativet er
    # et fast antal givninger"; romme:38 "At spille til 1000"
    assert match_over(ROMME, 3, [120, 500, 30]) and not match_over(ROMME, 3, [120, 499, 30])
    thousand = ruleset("romme", {"target_score": 1000})
    assert not match_over(thousand, 3, [120, 999, 30])
    fixed = ruleset("romme", {"fixed_deals": 4})
    assert not match_over(fixed, 3, [600, 0, 0]) and match_over(fixed, 4, [0, 0, 0])
