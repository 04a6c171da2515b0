"""Cards, suits, ranks, deck compositions and the card notation.

A *card id* is a physical card's index in its deck composition: the two 7♥ of a
two-deck game are different cards (ids) with the same face. The engine stores
card ids; `Card` gives the face and the copy.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import cache

from p2p_rommy.errors import N_, NotationError


class Suit(enum.Enum):
    """The four suits, in the order decks are laid out."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SYMBOL_SUITS = {symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()}

ACE = 1
JACK = 11
QUEEN = 12
KING = 13
ACE_HIGH = 14
"""The rank an ace takes at the top of a run (Q-K-A)."""

JOKER_RANK = 0

_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_NAME_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def rank_name(rank: int) -> str:
    """Print a rank as in the notation: ``A``, ``2``..``10``, ``J``, ``Q``, ``K``."""
    if rank == ACE_HIGH:
        rank = ACE
    return _RANK_NAMES.get(rank, str(rank))


@dataclass(frozen=True, slots=True)
class Card:
    """A physical card: a face (rank and suit, or a joker) and which copy it is."""

    rank: int
    suit: Suit | None
    copy: int = 0

    def __post_init__(self) -> None:
        if self.rank == JOKER_RANK:
            if self.suit is not None:
                raise NotationError(N_("a joker has no suit"))
        elif not (ACE <= self.rank <= KING) or self.suit is None:
            raise NotationError(
                N_("no such card: rank {rank}, suit {suit}").format(
                    rank=self.rank, suit=self.suit.value if self.suit else "-"
                )
            )

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def face(self) -> tuple[int, Suit | None]:
        """What the card shows, without the copy."""
        return (self.rank, self.suit)

    def notation(self) -> str:
        """ASCII notation: ``7H``, ``10S``, ``AS``, ``JK``."""
        if self.suit is None:
            return "JK"
        return f"{rank_name(self.rank)}{self.suit.value}"

    def pretty(self, ascii_only: bool = False) -> str:
        """Notation with a suit symbol (``7♥``), or ASCII when asked."""
        if self.suit is None:
            return "JK" if ascii_only else "🃏"
        if ascii_only:
            return self.notation()
        return f"{rank_name(self.rank)}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.notation()


_NOTATION = re.compile(r"^(10|[2-9]|[AJQK])([SHDC♠♥♦♣])$")


def parse_card(text: str) -> Card:
    """Parse ``7H``, ``10s``, ``A♠`` or ``JK`` into a card (copy 0).

    Raises `NotationError` with a hint on anything else.
    """
    cleaned = text.strip().upper()
    if cleaned in ("JK", "JOKER", "🃏"):
        return Card(JOKER_RANK, None)
    match = _NOTATION.match(cleaned)
    if match is None:
        raise NotationError(
            N_(
                "{text!r} is not a card: write rank then suit, like 7H, 10S, AS, QD, "
                "or JK for a joker"
            ).format(text=text)
        )
    rank_text, suit_text = match.groups()
    rank = _NAME_RANKS.get(rank_text) or int(rank_text)
    suit = _SYMBOL_SUITS.get(suit_text) or Suit(suit_text)
    return Card(rank, suit)


def parse_cards(text: str) -> list[Card]:
    """Parse a space- or comma-separated list of cards."""
    return [parse_card(part) for part in re.split(r"[\s,]+", text.strip()) if part]


@dataclass(frozen=True, slots=True)
class DeckComposition:
    """The physical cards of a variant's deck; a card id is an index into `cards`."""

    name: str
    cards: tuple[Card, ...]

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, card_id: int) -> Card:
        return self.cards[card_id]


def _build(decks: int, jokers: int) -> tuple[Card, ...]:
    cards = [
        Card(rank, suit, copy)
        for copy in range(decks)
        for suit in Suit
        for rank in range(ACE, KING + 1)
    ]
    cards.extend(Card(JOKER_RANK, None, copy) for copy in range(jokers))
    return tuple(cards)


@cache
def composition(size: int) -> DeckComposition:
    """The deck of 52 (one pack), 108 (2×52 + 4 jokers) or 110 (2×52 + 6 jokers) cards."""
    layouts = {52: (1, 0), 108: (2, 4), 110: (2, 6)}
    if size not in layouts:
        raise ValueError(f"no deck of {size} cards; there are decks of 52, 108 and 110")
    decks, jokers = layouts[size]
    return DeckComposition(f"{size}", _build(decks, jokers))
