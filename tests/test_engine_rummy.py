"""Rummy (Norwegian basic variant), table-driven. Each case cites the line of
``shared/rules/rummy.nb.txt`` (``rummy:N``) or ``shared/RULES-DECISIONS.md``."""

from __future__ import annotations

import pytest

from p2p_rommy.cards import composition
from p2p_rommy.engine import DrawStock, Phase, TakeDiscard, new_game
from p2p_rommy.engine.scoring import hand_points, round_scores, standings
from p2p_rommy.engine.state import RoundEnd
from p2p_rommy.errors import ConfigError, IllegalMove
from p2p_rommy.rules import ruleset
from p2p_rommy.rules.melds import MeldKind, check_meld, normalized
from tests.helpers import (
    bury_stock,
    cards_of,
    discard,
    draw,
    lay_down,
    lay_off,
    pass_turns,
    scripted_table,
)

RUMMY = ruleset("rummy")
DECK = composition(52)


def table3(seat1: str, stock: str = "KC QD", upcard: str = "2D", house=None):
    """3 players, dealer 0: seat 1 plays first with `seat1` (7 cards)."""
    return scripted_table(
        "rummy",
        3,
        {1: seat1, 2: "10S KS 5H 8H JH 10C 3D", 0: "6D 8D JD 3C 6C QC 2C"},
        upcard=upcard,
        stock=stock,
        house=house,
    )


@pytest.mark.parametrize(("players", "cards"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_hand_size_by_player_count(players, cards):
    # rummy:23-27 "| 2 | 10 |", "| 3–4 | 7 |", "| 5–6 | 6 |"
    from p2p_rommy.engine.table import OpenTable

    table = OpenTable(new_game(RUMMY, players)).start_round(list(range(52)))
    assert all(len(hand) == cards for hand in table.state.hands)
    assert len(table.state.stock) == 52 - players * cards - 1  # rummy:28 the upcard


def test_fifty_two_cards_no_jokers_and_seven_players_refused():
    # rummy:22 "én kortstokk med 52 kort uten jokere"; rummy:8 "2–6 spillere"
    assert RUMMY.deck_size == 52 and not any(card.is_joker for card in DECK.cards)
    with pytest.raises(ConfigError):
        new_game(RUMMY, 7)


def test_left_of_the_dealer_begins():
    # rummy:29 "Spilleren til venstre for giveren begynner"
    assert table3("AS 2S 3S 4D 9H 6S 7D").state.turn == 1


@pytest.mark.parametrize(
    ("kind", "tokens", "ok"),
    [
        ("set", "9H 9S 9C", True),  # rummy:13 "Tre eller fire kort med samme verdi"
        ("set", "9H 9S 9C 9D", True),
        ("set", "9H 9S", False),  # rummy:10 "minst tre kort"
        ("run", "4D 5D 6D", True),  # rummy:14 "Ruter 4, ruter 5 og ruter 6"
        ("run", "5H 6H 8H", False),  # rummy:15 "Hjerter 5, 6 og 8 er derfor ikke gyldig"
        ("run", "5H 6D 7H", False),  # rummy:16 "Hjerter og ruter kan ikke blandes"
        ("run", "AH 2H 3H", True),  # rummy:20 "Ess–2–3 er en gyldig sekvens"
        ("run", "QH KH AH:14", False),  # rummy:20 "Dame–konge–ess ... er ikke tillatt"
        ("run", "KH AH:14 2H:15", False),  # rummy:20 "konge–ess–2 er ikke tillatt"
    ],
)
def test_melds(kind, tokens, ok):
    cards = normalized(MeldKind(kind), cards_of(tokens, 52))
    if ok:
        check_meld(MeldKind(kind), cards, DECK, RUMMY)
    else:
        with pytest.raises(IllegalMove):
            check_meld(MeldKind(kind), cards, DECK, RUMMY)


def test_several_melds_in_one_turn_and_no_opening_requirement():
    # rummy:33 "I denne versjonen kan du legge ut flere"; rummy:45 "ikke noe krav om 30 poeng"
    table = draw(table3("AS 2S 3S 4D 4H 4C 7D", stock="9D"), 1)
    table = table.play(lay_down(table, 1, ("run", "AS 2S 3S")))
    table = table.play(lay_down(table, 1, ("set", "4D 4H 4C")))
    assert len(table.state.melds) == 2 and table.state.hands[1] and table.state.phase is Phase.PLAY


def test_lay_off_on_another_players_meld():
    # rummy:34 "Legg kort fra hånden til egne eller andres kombinasjoner";
    # rummy:42 "forlenge en sekvens i begge ender eller gjøre en gruppe med tre like til fire like"
    table = draw(table3("AS 2S 3S 9D 9H 8C 7D", stock="KC 4S"), 1)
    table = table.play(lay_down(table, 1, ("run", "AS 2S 3S")))
    table = table.play(discard(table, 1, "KC"))
    table = table.play(DrawStock(2))
    table = scripted_lay_off_by_seat2(table)
    assert [p.rank for p in table.state.melds[0].cards] == [1, 2, 3, 4]
    assert table.state.melds[0].owner == 1


def scripted_lay_off_by_seat2(table):
    """Seat 2 drew 4S from the stock; it lays it off on seat 1's run."""
    return table.play(lay_off(table, 2, 0, "4S"))


def test_must_draw_first():
    # rummy:36 "Du må trekke først, selv om du allerede har en ferdig kombinasjon"
    table = table3("AS 2S 3S 4D 4H 4C 7D")
    with pytest.raises(IllegalMove, match="not possible now"):
        table.play(lay_down(table, 1, ("run", "AS 2S 3S")))


def test_the_taken_discard_cannot_be_discarded_that_turn():
    # rummy:37 "Tok du toppkortet fra kastebunken, kan du ikke kaste det samme kortet tilbake
    # på den turen. Et kort trukket fra den lukkede bunken kan derimot kastes med en gang."
    table = table3("AS 2S 3S 4D 4H 4C 7D", upcard="KD").play(TakeDiscard(1))
    with pytest.raises(IllegalMove, match="took from the discard pile"):
        table.play(discard(table, 1, "KD"))
    assert table.play(discard(table, 1, "7D")).state.turn == 2
    drawn = draw(table3("AS 2S 3S 4D 4H 4C 7D", stock="KC"), 1)
    assert drawn.play(discard(drawn, 1, "KC")).state.turn == 2


def test_melding_may_not_strand_the_taken_discard():
    # RULES-DECISIONS Rummy: "A meld or lay-off that would leave that card as your only card
    # is illegal unless that card itself is played"
    table = table3("AS 2S 3S 4D 4H 4C 4S", upcard="KD").play(TakeDiscard(1))
    table = table.play(lay_down(table, 1, ("set", "4D 4H 4C")))
    table = table.play(lay_down(table, 1, ("run", "AS 2S 3S")))
    for meld in (0, 1):
        with pytest.raises(IllegalMove, match="only the card you took"):
            table.play(lay_off(table, 1, meld, "4S"))
    assert table.play(discard(table, 1, "4S")).state.turn == 2


def test_last_card_may_be_laid_off_or_melded():
    # rummy:47-51 "Det siste kortet kan: inngå i en ny kombinasjon / legges til ... / kastes"
    table = draw(table3("AS 2S 3S 4D 4H 4C 4S", stock="5S"), 1)
    table = table.play(lay_down(table, 1, ("run", "AS 2S 3S")))
    table = table.play(lay_down(table, 1, ("set", "4D 4H 4C")))
    table = table.play(lay_off(table, 1, 0, "4S"))
    out = table.play(lay_off(table, 1, 0, "5S"))
    assert out.state.phase is Phase.REVEAL and out.state.closer == 1
    assert out.state.round_end is RoundEnd.WENT_OUT  # rummy:52 "Runden stopper umiddelbart"


def test_winner_scores_the_others_hands():
    # rummy:54-60 "rundevinneren får summen av kortverdiene som motspillerne sitter igjen med";
    # "Har én motspiller en dame og en 4-er, mens en annen har et ess og en 7-er, får vinneren 22"
    hands = [[c.card for c in cards_of(t, 52)] for t in ("QH 4S", "AD 7C")]
    assert [hand_points(hand, DECK, RUMMY) for hand in hands] == [14, 8]
    assert round_scores(RUMMY, [0, 14, 8], [True] * 3, 0, False) == (22, 0, 0)


def test_first_to_the_target_wins():
    # rummy:61 "Avtal eksempelvis å spille til 100 poeng. Den første som når grensen, vinner."
    assert RUMMY.target_score == 100
    assert standings(RUMMY, [40, 105, 90])[0] == (1, 1)


def test_going_out_at_once_doubles_house_rule():
    # rummy:80 "gir dobbel poengsum når en spiller går ut på én gang"
    doubled = ruleset("rummy", {"going_out_at_once_doubles": True})
    assert round_scores(doubled, [0, 14, 8], [True] * 3, 0, True) == (44, 0, 0)
    assert round_scores(doubled, [0, 14, 8], [True] * 3, 0, False) == (22, 0, 0)


def test_one_new_meld_per_turn_house_rule():
    # rummy:80 "Noen varianter tillater bare én ny kombinasjon per tur"
    table = draw(table3("AS 2S 3S 4D 4H 4C 7D", house={"one_new_meld_per_turn": True}), 1)
    table = table.play(lay_down(table, 1, ("run", "AS 2S 3S")))
    with pytest.raises(IllegalMove, match="one new combination"):
        table.play(lay_down(table, 1, ("set", "4D 4H 4C")))


def test_empty_stock_turns_the_whole_pile_over_unshuffled():
    # rummy:63 "Neste spiller kan fortsatt ta toppkortet ... Vil spilleren ikke ha det, snur
    # dere hele kastebunken og bruker den som ny trekkbunke, uten å stokke."
    table = bury_stock(table3("AS 2S 3S 4D 4H 4C 7D"), keep=0)
    pile = table.state.discard
    taken = table.play(TakeDiscard(1))
    assert taken.state.phase is Phase.PLAY  # the top discard may still be taken
    after = table.play(DrawStock(1)).state
    assert after.discard == () and after.stock == pile[1:] and after.hands[1][-1] == pile[0]
    assert after.faces[pile[0]] is not None  # the turned pile was face up: no secrets


def test_empty_stock_shuffle_house_rule():
    # rummy:64 "Andre grupper stokker kortene før de brukes på nytt"
    table = bury_stock(table3("AS 2S 3S 4D 4H 4C 7D", house={"empty_stock": "shuffle"}), keep=0)
    pile = table.state.discard
    after = table.play(DrawStock(1), reshuffle=list).state
    assert set(after.retired) == set(pile) and all(after.faces[s] is None for s in after.stock)


def test_a_stalled_round_scores_nobody():
    # RULES-DECISIONS Stall guard; docs/rules.md: in Rummy there is no winner to collect
    assert round_scores(RUMMY, [5, 14, 8], [True] * 3, None, False) == (0, 0, 0)


def test_target_score_house_rule_is_validated():
    assert ruleset("rummy", {"target_score": "250"}).target_score == 250
    with pytest.raises(ConfigError, match="whole number"):
        ruleset("rummy", {"target_score": "0"})


def test_pass_turns_helper_keeps_turn_order():
    table = pass_turns(table3("AS 2S 3S 4D 4H 4C 7D", stock="KC QD JC 9C 7C 5C"), (1, 2, 0))
    assert table.state.turn == 1
