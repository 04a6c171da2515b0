"""A seat's view: the public state plus the faces of its own hand.

The client and the bots see only views. A view holds private faces for the
seat's own hand slots and nothing else, because the peer that builds it has
nothing else (ARCHITECTURE.md: "they never see another peer's hidden faces
because the peer doesn't have them").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from p2p_rommy.engine.moves import Move
from p2p_rommy.engine.state import GameState


@dataclass(frozen=True, slots=True)
class View:
    """What seat `seat` knows: `state` and its own hidden cards in `private`."""

    state: GameState
    seat: int
    private: Mapping[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        own = set(self.state.hands[self.seat]) if self.state.hands else set()
        stray = [slot for slot in self.private if slot not in own]
        if stray:
            raise ValueError(f"a view of seat {self.seat} holds faces of other slots: {stray}")
        object.__setattr__(self, "private", MappingProxyType(dict(self.private)))

    def face(self, slot: int) -> int | None:
        """The card id in `slot` if this seat knows it."""
        public = self.state.faces[slot]
        return public if public is not None else self.private.get(slot)

    def hand(self) -> list[tuple[int, int]]:
        """(slot, card id) for every card in this seat's hand."""
        cards = []
        for slot in self.state.hands[self.seat]:
            card = self.face(slot)
            if card is None:
                raise ValueError(f"seat {self.seat} does not know its card in slot {slot}")
            cards.append((slot, card))
        return cards


def private_faces(
    state: GameState, seat: int, truth: Mapping[int, int] | Sequence[int]
) -> dict[int, int]:
    """The hidden faces of `seat`'s hand taken from a full `truth` (slot -> card id)."""
    return {slot: truth[slot] for slot in state.hands[seat] if state.faces[slot] is None}


class Player(Protocol):
    """Whoever chooses a seat's moves from its view: a bot (the peer asks it when the
    seat is due) or nobody (the moves come from a person through the client)."""

    def choose(self, view: View) -> Move: ...

    def wants_buy(self, view: View) -> bool | None:
        """Claim (True) or pass (False) in the open buy window; None: not decided yet
        (asked again as time passes)."""
        ...
