"""What is due next at the table: the one answer to "who must act, and what".

`Replica.due()` gives it from the committed state (and `DeckSeat.due()` for the deck);
the peer proposes by it, reports stalls by it, and the client prompts by it. Nothing
else derives it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from p2p_rommy.i18n import Phrase


class DueKind(enum.Enum):
    """The step the due seat must propose."""

    DECK_COMMIT = "deck commit"
    SHUFFLE = "shuffle"
    SHARES = "shares"
    SEED = "seed"
    BUY = "buy"
    """The resolution of the open Køb! window (the seat whose turn it is proposes it)."""
    REVEAL = "reveal"
    MOVE = "move"

    @property
    def deck(self) -> bool:
        return self in (DueKind.DECK_COMMIT, DueKind.SHUFFLE, DueKind.SHARES, DueKind.SEED)


@dataclass(frozen=True, slots=True)
class Due:
    """`seat` must propose a step of `kind`; `what` says it for people; `left` is how
    many of its kind are still owed in this stretch of the deal, this one included
    (shuffles, or cards to give), so a screen can tell its pace; 0 elsewhere."""

    seat: int
    kind: DueKind
    what: Phrase
    left: int = 0
