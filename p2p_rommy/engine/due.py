"""What is due next at the table: the one answer to "who must act, and what".

`rules_due(state)` answers for the rules (a move, the Køb! result, a hand to show);
`Replica.due()` adds the deck protocol's work (`DeckSeat.due()`) in front of it. The
peer proposes by it, reports stalls by it, the client prompts by it, the engine's
legal moves and the in-process matches read it. Nothing else derives it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache

from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.i18n import N_, Phrase


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


_BUY_WHAT = Phrase.of(N_("the result of the Køb!"))
_MOVE_WHAT = Phrase.of(N_("its move"))
_REVEAL_WHAT = Phrase.of(N_("its hand at the end of the round"))


@cache
def _due(seat: int, kind: DueKind) -> Due:
    """The same value every time it is asked for (it is asked for at every step)."""
    what = {DueKind.BUY: _BUY_WHAT, DueKind.MOVE: _MOVE_WHAT, DueKind.REVEAL: _REVEAL_WHAT}
    return Due(seat, kind, what[kind])


def rules_due(state: GameState) -> Due | None:
    """What the rules ask for next: the seat in turn's move (draw or play), the result
    of the open Køb! window (proposed by the seat in turn), the next hand to show at the
    end of a round; None before a deal and once the match is over."""
    phase = state.phase
    if phase is Phase.BUY:
        return _due(state.turn, DueKind.BUY)
    if phase is Phase.DRAW or phase is Phase.PLAY:
        return _due(state.turn, DueKind.MOVE)
    if phase is Phase.REVEAL:
        return _due(state.pending_reveals()[0], DueKind.REVEAL)
    return None


def mover(state: GameState) -> int | None:
    """The seat that must make a move now (draw, meld, lay off, discard), if any."""
    due = rules_due(state)
    return due.seat if due is not None and due.kind is DueKind.MOVE else None
