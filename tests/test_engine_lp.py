"""Løbere og Passere, table-driven. Each case cites the line of
``shared/rules/loebere-og-passere.da.txt`` (``lp:N``) or the decision in
``shared/RULES-DECISIONS.md`` it checks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2p_rommy.cards import composition, parse_card
from p2p_rommy.engine import DrawStock, LayOff, Phase, ResolveBuy, SwapJoker, TakeDiscard, new_game
from p2p_rommy.engine.scoring import hand_points
from p2p_rommy.engine.state import RoundEnd
from p2p_rommy.engine.table import OpenTable
from p2p_rommy.errors import ConfigError, IllegalMove
from p2p_rommy.rules import ruleset
from p2p_rommy.rules.melds import MeldKind, Placed, check_meld, normalized
from tests.helpers import (
    bury_stock,
    cards_of,
    discard,
    draw,
    filler,
    first_card,
    lay_down,
    lay_off,
    pass_turns,
    placed,
    scripted_table,
    swap,
)

LP = ruleset("lp")
DECK = composition(108)
TWO_SETS = "7H 7S 7D 9C 9D 9S"


def opener(
    extra: str = "",
    house=None,
    stock: str = "4C 4D 6C 6D 2D",
    round_index: int = 0,
    seat1: str = "",
) -> OpenTable:
    """4 players, dealer 0: seat 1 plays first, holding two passere (or `seat1`)."""
    hand = seat1 or f"{TWO_SETS} {extra}".strip()
    hand = f"{hand} {filler(11 - len(hand.split()), avoid=hand)}".strip()
    return scripted_table(
        "lp",
        4,
        {1: hand, 2: filler(11), 3: filler(11, alt=True)},
        upcard="3C",
        stock=stock,
        house=house,
        round_index=round_index,
    )


def opened(
    extra: str = "", house=None, seat1: str = "", sets=("7H 7S 7D", "9C 9D 9S")
) -> OpenTable:
    """Seat 1 has drawn and laid two passere; it is still seat 1's turn."""
    table = draw(opener(extra=extra, house=house, seat1=seat1), 1)
    return table.play(lay_down(table, 1, *(("set", s) for s in sets)))


def next_turn_of_seat_1(table: OpenTable, throw: str) -> OpenTable:
    """Seat 1 discards `throw`, the others pass, seat 1 has drawn again."""
    table = table.play(discard(table, 1, throw))
    return draw(pass_turns(table, (2, 3, 0)), 1)


# --- set-up and melds -----------------------------------------------------


def test_deal_gives_eleven_each_and_turns_the_upcard():
    # lp:4 "3-5 spillere ... (108 kort). Hver spiller får 11 kort ... det øverste kort vendes"
    state = opener().state
    assert [len(hand) for hand in state.hands] == [11, 11, 11, 11]
    assert len(state.discard) == 1 and state.faces[state.discard[0]] is not None
    assert len(state.stock) == 108 - 44 - 1
    assert state.turn == 1 and state.phase is Phase.DRAW
    assert sum(face is not None for face in state.faces) == 1


@pytest.mark.parametrize("players", [2, 6])
def test_player_count_outside_three_to_five_is_refused(players):
    # lp:4 "3-5 spillere"
    with pytest.raises(ConfigError, match="3-5 players"):
        new_game(LP, players)


@pytest.mark.parametrize(
    ("kind", "tokens", "reason"),
    [
        # lp:7 "Løber: mindst 4 kort i træk i samme kulør"
        ("run", "5H 6H 7H", "a løber needs at least 4 cards"),
        ("run", "5H 6H 7H 9H", "no gaps"),
        ("run", "5H 6H 7H 8S", "one suit"),
        # lp:7 "Es er enten højt (B-D-K-E) eller lavt (E-2-3-4), aldrig begge dele" (no wrap)
        ("run", "JK:Q KH AH:14 2H:15", "cannot stand for"),
        ("run", "QH KH AH:1 2H", "no gaps"),
        # lp:6 "Passer: mindst 3 ... forskellige kulører (højst 4, én af hver kulør)"
        ("set", "9C 9D", "a passer needs at least 3 cards"),
        ("set", "9C 9D 9C", "different suits"),
        ("set", "9C 9D 9S 9H JK:9", "at most 4 cards"),
        ("set", "9C 9D 8S", "one rank"),
        # lp:8 "En melding skal have mindst ét rigtigt kort"
        ("set", "JK:9 JK:9 JK:9", "at least one natural card"),
    ],
)
def test_invalid_melds_are_refused_with_a_reason(kind, tokens, reason):
    cards = cards_of(tokens)
    with pytest.raises(IllegalMove, match=reason):
        check_meld(MeldKind(kind), normalized(MeldKind(kind), cards), DECK, LP)


@pytest.mark.parametrize(
    ("kind", "tokens"),
    [
        ("run", "JH QH KH AH:14"),  # lp:7 ace high (B-D-K-E)
        ("run", "AH 2H 3H 4H"),  # lp:7 ace low (E-2-3-4)
        ("run", "9H JK:10 JH QH"),  # lp:8 a joker replaces any card
        ("run", "JK:11 QH KH AH:14"),
        ("run", "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS:14"),  # 13 cards, the longest
        ("set", "9C 9D JK:9"),
        ("set", "9C 9D 9S 9H"),
        ("set", "JK:9 JK:9 9S"),  # decision: more jokers than naturals allowed by default
    ],
)
def test_valid_melds(kind, tokens):
    check_meld(MeldKind(kind), normalized(MeldKind(kind), cards_of(tokens)), DECK, LP)


def test_joker_toggles():
    # RULES-DECISIONS Jokers: toggles no_adjacent_jokers, jokers_not_more_than_naturals
    strict = ruleset("lp", {"no_adjacent_jokers": True, "jokers_not_more_than_naturals": True})
    run = normalized(MeldKind.RUN, cards_of("4H JK:5 JK:6 7H 8H"))
    with pytest.raises(IllegalMove, match="side by side"):
        check_meld(MeldKind.RUN, run, DECK, strict)
    with pytest.raises(IllegalMove, match="more jokers"):
        check_meld(MeldKind.SET, cards_of("JK:9 JK:9 9S"), DECK, strict)


# --- a turn ---------------------------------------------------------------


def test_must_draw_before_laying_down():
    # lp:20 a turn starts with a draw
    table = opener()
    with pytest.raises(IllegalMove, match="not possible now"):
        table.play(lay_down(table, 1, ("set", "7H 7S 7D"), ("set", "9C 9D 9S")))


def test_not_your_turn():
    table = opener()
    with pytest.raises(IllegalMove, match="not your turn"):
        table.play(DrawStock(2))


def test_contract_round_one_needs_two_passere():
    # lp:12 "| 1 | 2 passere |"; lp:21 "Første gang skal hele rundens kontrakt lægges på én gang"
    table = draw(opener(), 1)
    with pytest.raises(IllegalMove, match="whole contract: 2 passere"):
        table.play(lay_down(table, 1, ("set", "7H 7S 7D")))
    after = table.play(lay_down(table, 1, ("set", "7H 7S 7D"), ("set", "9C 9D 9S")))
    assert after.state.opened[1] and len(after.state.melds) == 2
    assert all(m.owner == 1 for m in after.state.melds)


def test_opening_may_hold_extra_cards_and_extra_melds():
    # lp:21 "gerne med ekstra kort og ekstra kombinationer"
    table = draw(opener(extra="7C 4H 5H 6H", stock="9H"), 1)
    move = lay_down(table, 1, ("set", "9C 9D 9S 9H"), ("set", "7S 7D 7C"), ("run", "4H 5H 6H 7H"))
    after = table.play(move)
    assert [m.kind for m in after.state.melds] == [MeldKind.SET, MeldKind.SET, MeldKind.RUN]
    assert len(after.state.melds[0].cards) == 4


@pytest.mark.parametrize(
    ("round_index", "melds", "ok"),
    [
        # lp:13 "| 2 | 1 løber + 1 passer |"
        (1, [("run", "4H 5H 6H 7H"), ("set", "9C 9D 9S")], True),
        (1, [("set", "9C 9D 9S")], False),
        # lp:14 "| 3 | 2 løbere |"; two løbere of one suit may be separate melds (decision)
        (2, [("run", "4H 5H 6H 7H"), ("run", "9H 10H JH QH")], True),
        (2, [("run", "4H 5H 6H 7H"), ("set", "9C 9D 9S")], False),
        # lp:15 "| 4 | 3 passere |"
        (3, [("set", "9C 9D 9S"), ("set", "7S 7D 7C"), ("set", "KS KC KH")], True),
        # lp:18 "| 7 | 3 løbere |"
        (6, [("run", "4H 5H 6H 7H"), ("run", "9H 10H JH QH")], False),
    ],
)
def test_contracts_of_later_rounds(round_index, melds, ok):
    hand = "4H 5H 6H 7H 9C 9D 9S 9H 10H JH QH"
    if round_index == 3:
        hand = "9C 9D 9S 7S 7D 7C KS KC KH 2C 3D"
    table = draw(opener(seat1=hand, round_index=round_index), 1)
    move = lay_down(table, 1, *melds)
    if ok:
        assert table.play(move).state.opened[1]
    else:
        with pytest.raises(IllegalMove, match="whole contract"):
            table.play(move)


def test_discard_is_offered_to_the_next_player_first():
    # lp:22 "Smid ét kort"; lp:24 "næste spiller første ret til at tage det som sit træk"
    table = draw(opener(), 1)
    table = table.play(discard(table, 1, "5S"))
    state = table.state
    assert state.turn == 2 and state.phase is Phase.DRAW and state.offer == state.discard[-1]
    taken = table.play(TakeDiscard(2))
    assert taken.state.phase is Phase.PLAY and state.offer in taken.state.hands[2]


def test_going_out_by_laying_the_last_card_needs_no_discard():
    # lp:22 "medmindre du netop har lagt dit sidste kort"; lp:26 "Lukkeren får 0 point"
    hand = "7H 7S 7D 7C 9C 9D 9S 9H 2H 3H 4H"
    table = draw(opener(seat1=hand, stock="5H"), 1)
    out = table.play(
        lay_down(table, 1, ("set", "7H 7S 7D 7C"), ("set", "9C 9D 9S 9H"), ("run", "2H 3H 4H 5H"))
    )
    assert out.state.phase is Phase.REVEAL and out.state.closer == 1
    assert out.state.round_end is RoundEnd.WENT_OUT
    for reveal in out.pending_reveals():
        out = out.play(reveal)
    assert out.state.phase is Phase.ROUND_START and out.state.round_index == 1
    scores = out.state.round_scores[0]
    assert scores[1] == 0 and all(score > 0 for seat, score in enumerate(scores) if seat != 1)
    assert out.state.dealer == 1  # RULES-DECISIONS: the dealer rotates left


def test_going_out_by_discarding_the_last_card():
    # lp:26 "Runden slutter i det øjeblik en spiller slipper sit sidste kort (lagt eller smidt)"
    hand = "7H 7S 7D 7C 9C 9D 9S 9H 10C 10D 10S"
    table = draw(opener(seat1=hand, stock="KC"), 1)
    sets = ("7H 7S 7D 7C", "9C 9D 9S 9H", "10C 10D 10S")
    table = table.play(lay_down(table, 1, *(("set", s) for s in sets)))
    out = table.play(discard(table, 1, "KC"))
    assert out.state.phase is Phase.REVEAL and out.state.closer == 1
    assert out.state.pending_reveals() == (0, 2, 3)


def test_hand_scoring_values():
    # lp:26 "joker 25, es 15, 10/B/D/K 10, 2-9 kortets værdi"
    hand = [card.card for card in cards_of("JK AS 10H KD 2C 9S")]
    assert hand_points(hand, DECK, LP) == 25 + 15 + 10 + 10 + 2 + 9


def test_seven_rounds_then_lowest_total_wins():
    # lp:2 "7 runder"; lp:26 "Laveste samlede sum efter 7 runder vinder"
    import random

    from p2p_rommy.engine.scoring import winners
    from p2p_rommy.simulate import play_match, random_players

    rng = random.Random(5)
    final = play_match(LP, random_players(3, rng), rng).final
    assert final.phase is Phase.MATCH_OVER and len(final.round_scores) == 7
    assert winners(LP, final.scores) == [
        s for s in range(3) if final.scores[s] == min(final.scores)
    ]


# --- Køb ------------------------------------------------------------------


def _declined_discard(house=None) -> OpenTable:
    """Seat 1 discarded 5S; seat 2 declined it by drawing from the stock."""
    table = draw(opener(house=house), 1)
    table = table.play(discard(table, 1, "5S"))
    return table.play(DrawStock(2))


def test_the_next_player_has_the_first_right_to_the_discard():
    # lp:24 "Når et kort smides, har næste spiller første ret til at tage det som sit
    # træk." No window opens while seat 2 may still take it; taking it is its draw.
    table = draw(opener(), 1)
    table = table.play(discard(table, 1, "5S"))
    assert table.state.phase is Phase.DRAW and table.state.turn == 2
    thrown = table.state.discard[-1]
    taken = table.play(TakeDiscard(2))
    assert thrown in taken.state.hands[2] and taken.state.phase is Phase.PLAY
    with pytest.raises(IllegalMove):
        table.play(ResolveBuy((3,)))  # nobody else may claim it before seat 2 declines


def test_the_first_call_wins_by_default():
    # lp:24 "Siger vedkommende nej, må alle andre råbe »Køb!« – den første vinder."
    # The default buy_priority is `first`: the log layer lists the claims in the order
    # the table saw the calls (SPEC §4.7, the call most seats saw first), and the
    # engine gives the card to the first of them, not to the nearest seat.
    assert LP.buy_priority == "first"
    table = _declined_discard()
    state = table.state
    assert state.phase is Phase.BUY
    assert state.buy_eligible == (3, 0)  # not the discarder (1), not the decliner (2)
    bought = table.play(ResolveBuy((0, 3)))  # seat 0 called first
    assert len(bought.state.hands[0]) == 13 and len(bought.state.hands[3]) == 11
    assert bought.state.buys[0] == 1
    bought = table.play(ResolveBuy((3, 0)))  # seat 3 called first
    assert len(bought.state.hands[3]) == 13 and len(bought.state.hands[0]) == 11


def test_the_price_and_the_timing_of_a_buy_are_unchanged():
    # lp:24 "Prisen er ét strafkort fra den lukkede bunke, så hånden vokser med to.
    # Købte kort må først lægges ned i ens egen tur."
    table = _declined_discard()
    state = table.state
    assert LP.buy_window_ms == 5000  # RULES-DECISIONS Køb: timeout 5 s by default
    bought = table.play(ResolveBuy((0,)))
    assert state.offer in bought.state.hands[0] and state.stock[0] in bought.state.hands[0]
    assert len(bought.state.hands[0]) == len(state.hands[0]) + 2
    assert bought.state.stock == state.stock[1:]
    assert bought.state.phase is Phase.PLAY and bought.state.turn == 2  # the decliner plays
    with pytest.raises(IllegalMove, match="not your turn"):
        bought.play(discard(bought, 0, first_card(bought, 0)))


def test_buy_priority_seat_gives_it_to_the_nearest_claimant():
    # House rule (RULES-DECISIONS Køb: `seat` and `lot` are house rules): the claimant
    # nearest after the discarder wins, whatever order the calls came in.
    table = _declined_discard({"buy_priority": "seat"})
    assert table.state.rules.buy_priority == "seat"
    bought = table.play(ResolveBuy((0, 3)))
    assert len(bought.state.hands[3]) == 13 and len(bought.state.hands[0]) == 11
    assert bought.state.buys[3] == 1
    assert bought.state.phase is Phase.PLAY and bought.state.turn == 2


def test_buy_priority_lot_gives_it_to_the_first_claim_in_the_lot_order():
    # docs/decisions.md: with buy_priority = lot the log layer lists the claims in the
    # order of the window's lot; the engine takes the first.
    table = _declined_discard({"buy_priority": "lot"})
    assert table.state.rules.buy_priority == "lot"
    bought = table.play(ResolveBuy((0, 3)))
    assert len(bought.state.hands[0]) == 13 and len(bought.state.hands[3]) == 11
    assert bought.state.buys[0] == 1


def test_buy_priority_is_first_seat_or_lot():
    with pytest.raises(ConfigError, match="first, seat, lot"):
        ruleset("lp", {"buy_priority": "fastest"})


def test_no_claims_closes_the_window():
    after = _declined_discard().play(ResolveBuy(()))
    assert after.state.phase is Phase.PLAY and after.state.offer is None
    assert [len(h) for h in after.state.hands] == [11, 11, 12, 11]


def test_buy_claim_from_an_ineligible_seat_is_refused():
    table = _declined_discard()
    with pytest.raises(IllegalMove, match="may not buy"):
        table.play(ResolveBuy((1,)))
    with pytest.raises(IllegalMove, match="only once"):
        table.play(ResolveBuy((3, 3)))


def test_bought_cards_wait_for_the_buyers_own_turn():
    # lp:24 "Købte kort må først lægges ned i ens egen tur"
    bought = _declined_discard().play(ResolveBuy((3,)))
    with pytest.raises(IllegalMove, match="not your turn"):
        bought.play(discard(bought, 3, first_card(bought, 3)))


def test_max_buys_per_round():
    # lp:31 "Maks. køb pr. runde (standard: ubegrænset)"
    table = _declined_discard({"max_buys": 1}).play(ResolveBuy((3,)))
    table = table.play(discard(table, 2, first_card(table, 2)))
    table = table.play(DrawStock(3))
    assert table.state.buy_eligible == (0, 1)


def test_starter_card_is_offered_and_may_be_bought():
    # RULES-DECISIONS Køb: "The starter card after the deal is treated as a discard"
    table = opener().play(DrawStock(1))
    assert table.state.phase is Phase.BUY
    assert table.state.buy_eligible == (2, 3, 0)  # everyone but the first player


def test_open_players_may_buy_toggle():
    # RULES-DECISIONS Køb: toggle open_players_may_buy (on)
    table = opened(house={"open_players_may_buy": False})
    table = table.play(discard(table, 1, "5S")).play(DrawStock(2))
    assert 1 not in table.state.buy_eligible
    table = opened()
    table = table.play(discard(table, 1, "5S")).play(DrawStock(2))
    assert table.state.buy_eligible == (3, 0)  # 1 is the discarder either way


def test_no_buy_without_a_penalty_card():
    # RULES-DECISIONS: "A buy is not possible when no penalty card can be had"
    table = opener()
    state = table.state
    table = OpenTable(replace(state, stock=state.stock[:1], retired=state.stock[1:]), table.truth)
    after = table.play(DrawStock(1))
    assert after.state.phase is Phase.PLAY and after.state.offer is None


# --- house rules ----------------------------------------------------------


def test_build_in_opening_turn_off_by_default():
    # lp:28 "Byg i åbningsturen (standard: fra)"
    table = opened(extra="7C")
    with pytest.raises(IllegalMove, match="build in opening turn"):
        table.play(lay_off(table, 1, 0, "7C"))
    later = next_turn_of_seat_1(table, "5S")
    assert len(later.play(lay_off(later, 1, 0, "7C")).state.melds[0].cards) == 4


def test_build_in_opening_turn_on():
    table = opened(extra="7C", house={"build_in_opening_turn": True})
    after = table.play(lay_off(table, 1, 0, "7C"))
    assert len(after.state.melds[0].cards) == 4


def test_no_second_lay_down_in_the_opening_turn():
    # lp:21 the contract is laid "på én gang"; lp:32 new melds come "i senere ture"
    table = opened(extra="2H 3H 4H 5H")
    with pytest.raises(IllegalMove, match="later turn"):
        table.play(lay_down(table, 1, ("run", "2H 3H 4H 5H")))


def test_new_melds_after_opening_on_by_default():
    # lp:32 "Nye meldinger efter åbning (standard: til)"
    table = next_turn_of_seat_1(opened(extra="2H 3H 4H 5H"), "2S")
    after = table.play(lay_down(table, 1, ("run", "2H 3H 4H 5H")))
    assert len(after.state.melds) == 3


def test_new_melds_after_opening_off():
    table = opened(extra="2H 3H 4H 5H", house={"new_melds_after_opening": False})
    table = next_turn_of_seat_1(table, "2S")
    with pytest.raises(IllegalMove, match="new melds after opening"):
        table.play(lay_down(table, 1, ("run", "2H 3H 4H 5H")))


def test_lay_off_before_opening_is_refused():
    # lp:21 "Når man er åben, må man bygge videre på alle meldinger"
    table = opened()
    table = draw(table.play(discard(table, 1, "5S")), 2)
    slot = table.state.hands[2][0]
    with pytest.raises(IllegalMove, match="must open"):
        table.play(LayOff(2, 0, Placed(slot, table.truth[slot], 7)))


def test_lay_off_extends_a_run_at_either_end_only():
    # RULES-DECISIONS "Laying off onto a run extends either end, one card at a time
    # ... onto a set only a missing suit while under 4 cards"
    hand = "4H 5H 6H 7H 9C 9D 9S 3H 8H 9C 10H"
    table = draw(opener(seat1=hand, round_index=1), 1)
    table = table.play(lay_down(table, 1, ("run", "4H 5H 6H 7H"), ("set", "9C 9D 9S")))
    table = next_turn_of_seat_1(table, "4C")
    with pytest.raises(IllegalMove, match="extend it at one end"):
        table.play(lay_off(table, 1, 0, "10H"))
    table = table.play(lay_off(table, 1, 0, "3H"))
    table = table.play(lay_off(table, 1, 0, "8H"))
    assert [p.rank for p in table.state.melds[0].cards] == [3, 4, 5, 6, 7, 8]
    with pytest.raises(IllegalMove, match="different suits"):
        table.play(lay_off(table, 1, 1, "9C"))


def test_joker_swap_by_an_opened_player():
    # lp:29 "Byt joker (standard: til): en åben spiller må bytte en joker på bordet
    # med det kort, den står for"
    hand = "7H JK 7D 9C 9D 9S 7S 5S 8S JS 2C"
    table = opened(seat1=hand, sets=("7H JK:7 7D", "9C 9D 9S"))
    joker = next(p.slot for p in table.state.melds[0].cards if DECK.card(p.card).is_joker)
    with pytest.raises(IllegalMove, match="build in opening turn"):
        table.play(swap(table, 1, 0, "7S"))  # decision: a swap counts as building
    table = next_turn_of_seat_1(table, "2C")
    after = table.play(swap(table, 1, 0, "7S"))
    assert joker in after.state.hands[1] and joker not in after.state.melds[0].slots
    assert after.state.faces[joker] is not None  # everyone saw the joker on the table
    wrong = placed(table, 1, "8S")
    with pytest.raises(IllegalMove, match="stands for 7"):
        table.play(SwapJoker(1, 0, joker, Placed(wrong.slot, wrong.card, 7)))
    same_suit = placed(table, 1, "5S")
    with pytest.raises(IllegalMove):
        table.play(SwapJoker(1, 0, joker, Placed(same_suit.slot, same_suit.card, 7)))


def test_joker_swap_off_and_before_opening():
    hand = "7H JK 7D 9C 9D 9S 7S 5S 8S JS 2C"
    table = opened(seat1=hand, sets=("7H JK:7 7D", "9C 9D 9S"), house={"joker_swap": False})
    table = next_turn_of_seat_1(table, "2C")
    with pytest.raises(IllegalMove, match="house rule 'joker swaps' is off"):
        table.play(swap(table, 1, 0, "7S"))
    table = opened(seat1=hand, sets=("7H JK:7 7D", "9C 9D 9S"))
    table = draw(table.play(discard(table, 1, "2C")), 2)
    joker = next(p.slot for p in table.state.melds[0].cards if DECK.card(p.card).is_joker)
    slot = table.state.hands[2][0]
    with pytest.raises(IllegalMove, match="opened"):
        table.play(SwapJoker(2, 0, joker, Placed(slot, table.truth[slot], 7)))


def test_swapped_joker_must_be_played_toggle():
    # RULES-DECISIONS Joker swap: toggle swapped_joker_must_be_played (off)
    hand = "7H JK 7D 9C 9D 9S 7S 5S 8S JS 2C"
    table = opened(
        seat1=hand, sets=("7H JK:7 7D", "9C 9D 9S"), house={"swapped_joker_must_be_played": True}
    )
    table = next_turn_of_seat_1(table, "2C")
    after = table.play(swap(table, 1, 0, "7S"))
    with pytest.raises(IllegalMove, match="must be laid down"):
        after.play(discard(after, 1, "5S"))
    played = after.play(lay_off(after, 1, 1, "JK:9"))
    assert played.play(discard(played, 1, "5S")).state.turn == 2


@pytest.mark.parametrize("mode", ["shuffle", "turn_over"])
def test_empty_stock_rebuilds_from_the_discard_pile_but_its_top(mode):
    # lp:30 "Tom bunke (standard: bland): afsmidningsbunken (undtagen øverste kort) blandes"
    table = bury_stock(opener(house={"empty_stock": mode}), keep=0)
    pile = table.state.discard
    after = table.play(DrawStock(1), reshuffle=lambda cards: list(reversed(cards))).state
    assert after.discard == pile[-1:]
    assert len(after.stock) == len(pile) - 2  # the rest, less the card just drawn
    if mode == "shuffle":
        assert set(after.retired) == set(pile[:-1])
        assert all(after.faces[slot] is None for slot in after.stock)
    else:
        assert after.stock == pile[1:-1]
    assert after.rebuilds_since_progress == 1


def test_stall_guard_ends_a_round_rebuilt_twice_without_progress():
    # RULES-DECISIONS "Stall guard": stock rebuilt twice with no meld, lay-off, swap or buy
    table = draw(bury_stock(opener(), keep=0), 1)
    table = table.play(discard(table, 1, "5S"))
    table = bury_stock(table, keep=0)
    ended = table.play(DrawStock(2))
    assert ended.state.phase is Phase.REVEAL and ended.state.round_end is RoundEnd.STALLED
    assert ended.state.closer is None
    for reveal in ended.pending_reveals():
        ended = ended.play(reveal)
    assert all(score > 0 for score in ended.state.round_scores[0])  # everyone scores


def test_progress_resets_the_stall_guard():
    table = draw(bury_stock(opener(), keep=0), 1)
    table = table.play(lay_down(table, 1, ("set", "7H 7S 7D"), ("set", "9C 9D 9S")))
    assert table.state.rebuilds_since_progress == 0


def test_no_card_for_a_new_stock_ends_the_round():
    # RULES-DECISIONS Empty stock: "If no card can form a new stock, the round ends"
    table = opener()
    state = table.state
    table = OpenTable(replace(state, stock=(), retired=state.stock), table.truth)
    ended = table.play(DrawStock(1))
    assert ended.state.round_end is RoundEnd.STOCK_EXHAUSTED and ended.state.phase is Phase.REVEAL


def test_claimed_faces_must_fit_what_is_public():
    # a move's faces are proven by the deck layer; the engine still refuses a face that
    # contradicts a public one, or a card already elsewhere on the table
    table = draw(opener(), 1)
    up = table.state.discard[-1]
    slot = table.state.hands[1][0]
    from p2p_rommy.engine import Discard

    with pytest.raises(IllegalMove, match="already elsewhere"):
        table.play(Discard(1, slot, table.state.faces[up]))
    ace = next(i for i, c in enumerate(DECK.cards) if c.face == parse_card("AS").face)
    assert table.play(Discard(1, slot, ace)).state.faces[slot] == ace


def test_swapped_joker_obligation_lapses_when_it_fits_nowhere():
    # docs/rules.md: the obligation holds while the joker fits a meld, so no turn dead-ends
    hand = "7H JK 7D 7C 9C 9D 9S 9H 7S 5S 8S"
    sets = ("7H JK:7 7D 7C", "9C 9D 9S 9H")
    table = opened(seat1=hand, sets=sets, house={"swapped_joker_must_be_played": True})
    table = next_turn_of_seat_1(table, "5S")
    after = table.play(swap(table, 1, 0, "7S"))  # both passere are now full
    assert after.play(discard(after, 1, "8S")).state.turn == 2
