"""Moves: frozen values, one class per kind, each naming the seat that makes it.

A move that shows cards carries their faces (card ids). The engine checks the
rules on those faces; whether a face really is the card in that slot is the deck
protocol's proof to check, one layer up. `StartRound` and `ResolveBuy` are not a
player's choice: chance (the deal's upcard) and the buy sequencer supply them.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_rommy.rules.melds import MeldKind, Placed


@dataclass(frozen=True, slots=True)
class StartRound:
    """Deal the next round; `upcard` is the face of the card turned up to start the discard pile."""

    upcard: int


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Take the top card of the stock (declining the discard)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile as this turn's draw."""

    seat: int


@dataclass(frozen=True, slots=True)
class NewMeld:
    """One meld of a lay-down: its kind and its cards (a run low to high)."""

    kind: MeldKind
    cards: tuple[Placed, ...]


@dataclass(frozen=True, slots=True)
class LayDown:
    """Put one or more new melds on the table at once (an opening is one lay-down)."""

    seat: int
    melds: tuple[NewMeld, ...]


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add one card from hand to meld number `meld` on the table."""

    seat: int
    meld: int
    card: Placed


@dataclass(frozen=True, slots=True)
class SwapJoker:
    """Replace the joker in `joker_slot` of meld `meld` by the card it stands for."""

    seat: int
    meld: int
    joker_slot: int
    card: Placed


@dataclass(frozen=True, slots=True)
class Discard:
    """Put `slot` (showing `card`) from hand on the discard pile, ending the turn."""

    seat: int
    slot: int
    card: int


@dataclass(frozen=True, slots=True)
class ResolveBuy:
    """Close the buy window: the valid claims in the sequencer's order (may be empty)."""

    claims: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RevealHand:
    """At round end, show every card left in hand: (slot, card id) pairs."""

    seat: int
    cards: tuple[tuple[int, int], ...]


Move = (
    StartRound
    | DrawStock
    | TakeDiscard
    | LayDown
    | LayOff
    | SwapJoker
    | Discard
    | ResolveBuy
    | RevealHand
)
"""Every kind of move the engine applies."""

PlayerMove = DrawStock | TakeDiscard | LayDown | LayOff | SwapJoker | Discard | RevealHand
