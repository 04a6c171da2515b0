"""Cards: notation both ways, identity by copy, the three deck compositions."""

from __future__ import annotations

from collections import Counter

import pytest

from p2p_rommy.cards import Card, Suit, composition, parse_card, parse_cards
from p2p_rommy.errors import NotationError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("7H", 7, Suit.HEARTS),
        ("10S", 10, Suit.SPADES),
        ("AS", 1, Suit.SPADES),
        ("qd", 12, Suit.DIAMONDS),
        ("K♣", 13, Suit.CLUBS),
        ("JK", 0, None),
        (" jk ", 0, None),
    ],
)
def test_parse(text, rank, suit):
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("text", ["", "1H", "11S", "7X", "H7", "JKR", "10", "AS AS"])
def test_parse_errors_say_how_to_write_a_card(text):
    with pytest.raises(NotationError, match="write rank then suit"):
        parse_card(text)


def test_print_ascii_and_unicode():
    assert [parse_card(t).notation() for t in ("7H", "10S", "AS", "JK")] == [
        "7H",
        "10S",
        "AS",
        "JK",
    ]
    assert parse_card("10S").pretty() == "10♠" and parse_card("QD").pretty() == "Q♦"
    assert parse_card("QD").pretty(ascii_only=True) == "QD"
    assert parse_cards("7H, 8H 9H") == [
        Card(7, Suit.HEARTS),
        Card(8, Suit.HEARTS),
        Card(9, Suit.HEARTS),
    ]


def test_round_trip_every_card():
    for card in composition(110).cards:
        again = parse_card(card.notation())
        assert again.face == card.face


def test_identity_includes_the_copy():
    deck = composition(108)
    sevens = [card for card in deck.cards if card.face == (7, Suit.HEARTS)]
    assert len(sevens) == 2 and sevens[0] != sevens[1] and sevens[0].face == sevens[1].face


@pytest.mark.parametrize(("size", "jokers"), [(52, 0), (108, 4), (110, 6)])
def test_compositions(size, jokers):
    deck = composition(size)
    assert len(deck) == size
    assert sum(card.is_joker for card in deck.cards) == jokers
    faces = Counter(card.face for card in deck.cards if not card.is_joker)
    assert len(faces) == 52 and set(faces.values()) == {1 if size == 52 else 2}
    assert len(set(deck.cards)) == size  # every physical card distinct


def test_no_other_deck_sizes():
    with pytest.raises(ValueError, match="52, 108 and 110"):
        composition(54)
