"""The public game state: the same on every peer, hashed and signed each step.

The round's deck is a list of *slots*: slot ``k`` is position ``k`` of the deck
the deck protocol shuffled (ARCHITECTURE.md, "the engine works on card slots").
Every slot is in exactly one place: the stock, a hand, a meld, the discard pile,
or *retired* (its card went into a rebuilt, reshuffled stock under a new slot).
`faces[slot]` is the card id once it is public and None while hidden; a seat's
own hidden cards live in its `View`, never here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any

from p2p_rommy.rules.melds import Meld
from p2p_rommy.rules.variants import RuleSet


class Phase(enum.Enum):
    ROUND_START = "round_start"
    """Waiting for the deck protocol to deal (a `StartRound` with the upcard)."""
    DRAW = "draw"
    """The seat in turn draws from the stock or takes the discard."""
    BUY = "buy"
    """Løbere og Passere: the declined discard may be bought (Køb!) until `ResolveBuy`."""
    PLAY = "play"
    """The seat in turn melds, lays off, swaps jokers, and discards (or has gone out)."""
    REVEAL = "reveal"
    """The round is over; seats with cards show their hands for scoring."""
    MATCH_OVER = "match_over"


class RoundEnd(enum.Enum):
    WENT_OUT = "went_out"
    STALLED = "stalled"
    """The stall guard: the stock was rebuilt twice with no meld, lay-off, swap or buy."""
    STOCK_EXHAUSTED = "stock_exhausted"
    """A draw was due, the stock was empty and no card could form a new one."""


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything every peer agrees on. Replace, never mutate."""

    rules: RuleSet
    players: int
    first_dealer: int
    round_index: int
    dealer: int
    phase: Phase
    turn: int
    """The seat in turn; through the reveal phase and at match_over it stays the seat
    that was in turn when the round ended (the closer's), SPEC §2 field 8."""
    faces: tuple[int | None, ...]
    stock: tuple[int, ...]
    """Top card first."""
    discard: tuple[int, ...]
    """Bottom card first, top card last."""
    hands: tuple[tuple[int, ...], ...]
    melds: tuple[Meld, ...]
    retired: tuple[int, ...]
    opened: tuple[bool, ...]
    buys: tuple[int, ...]
    offer: int | None
    """The discard that may still be bought (lp), or None."""
    discarder: int | None
    """The seat of the last discard, in every variant (also where nothing is offered),
    until the next draw or take: a draw that opens no buy window, a take, a buy's
    resolution, the deal and the round's end set it to None (SPEC §2, field 18)."""
    buy_eligible: tuple[int, ...]
    taken_discard: int | None
    opened_this_turn: bool
    new_melds_this_turn: int
    swapped_jokers: tuple[int, ...]
    rebuilds_since_progress: int
    round_end: RoundEnd | None
    closer: int | None
    closer_at_once: bool
    """The closer went out in the turn they first melded (hand-rommé)."""
    revealed: tuple[bool, ...]
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]

    def hand(self, seat: int) -> tuple[int, ...]:
        return self.hands[seat]

    def public_face(self, slot: int) -> int:
        """The face of a slot the rules have shown to everyone (a meld's card, a swapped
        joker, a discard, a revealed hand); `ValueError` for a hidden one."""
        face = self.faces[slot]
        if face is None:
            raise ValueError(f"slot {slot} is not face up")
        return face

    def top_discard(self) -> int | None:
        return self.discard[-1] if self.discard else None

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    def pending_reveals(self) -> tuple[int, ...]:
        """Seats that still have to show their hand at round end."""
        if self.phase is not Phase.REVEAL:
            return ()
        return tuple(seat for seat in range(self.players) if not self.revealed[seat])


_SLOTS = tuple(
    (slot.__get__, slot.__set__) for slot in (getattr(GameState, f.name) for f in fields(GameState))
)
"""Each field's slot (read, write): `changed` copies a state through them."""


def changed(state: GameState, **changes: Any) -> GameState:
    """`dataclasses.replace(state, **changes)` without building its keyword arguments and
    calling `__init__` (the state has no `__post_init__`): every move makes a state or
    two, and a simulated game ~6,000. A name that is no field raises `AttributeError`."""
    new: GameState = object.__new__(GameState)
    for read, write in _SLOTS:
        write(new, read(state))
    for name, value in changes.items():
        object.__setattr__(new, name, value)
    return new
