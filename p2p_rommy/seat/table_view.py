"""What a client may see of its seat: the view types. One immutable snapshot
(`TableView`), published by the session on the event loop after every call into the
peer, and the news that comes with it.

The peer computes in a worker thread; a client that read the peer while it did could
meet a state half way through a step. So the client reads only a `TableView` — taken
on the loop between two calls, when the peer is still (`seat/snapshot.py`) — and tells
the session what the player wants (intents). With each view come the things that
happened since the last one (`news`): a move or a Køb! window that committed, chat,
refusals, stalls, notes, so no client diffs counters to find them.

These are the client's words for what happened, not the peer's events: a client
imports nothing from `log/` (no envelopes, no steps, no records), only these values
and the plain ones they carry (`engine.view.View`, `engine.due.Due`, `log.stalls`'
`Waiting` and `Stall`).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_rommy.engine.due import Due
from p2p_rommy.engine.moves import Move
from p2p_rommy.engine.state import GameState
from p2p_rommy.engine.view import View
from p2p_rommy.log.stalls import Stall, Waiting


@dataclass(frozen=True, slots=True)
class Played:
    """Move step `n` committed: `move` was played."""

    n: int
    move: Move


@dataclass(frozen=True, slots=True)
class Bought:
    """Step `n` resolved a Køb! window: `buyer` bought the card (None: nobody called)."""

    n: int
    buyer: int | None


@dataclass(frozen=True, slots=True)
class Stepped:
    """Step `n` committed and was neither a move nor a Køb! resolution (a deck message,
    an end): the table moved on."""

    n: int


@dataclass(frozen=True, slots=True)
class Said:
    """A chat line kept (another seat's, or this seat's own)."""

    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class Dropped:
    """A message from the network was refused (the reason is for the log file)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Overdue:
    """A seat has kept the table waiting too long (reported once per owed message)."""

    stall: Stall


@dataclass(frozen=True, slots=True)
class Line:
    """A line for the log that is nobody's fault (a claim too late, a seat that left)."""

    text: str


News = Played | Bought | Stepped | Said | Dropped | Overdue | Line
"""What a client is told happened since the view before."""


@dataclass(frozen=True, slots=True)
class TableView:
    """One seat's table at one moment (see the module docstring)."""

    view: View
    """The public state and this seat's own cards."""
    n: int
    """The last committed step."""
    over: bool
    ended: tuple[tuple[int, ...], str] | None
    """(absent seats, reason) once the others ended the game without them."""
    forfeited: tuple[int, ...]
    """The seats that forfeit by that end (none on one seat's word: abandoned)."""
    abandoned: bool
    """Ended on one seat's word alone (a table of two): no standing."""
    frozen: str | None
    culprit: int | None
    """The seat the freeze names from its signed data: the others may end the game
    without it at once (it forfeits)."""
    halted: str | None
    """Why this seat stopped on its own (a failed write), if it did."""
    my_turn: bool
    due: Due | None
    waiting: Waiting | None
    """Whom the table waits for, since when on the session's clock."""
    stall_after: float
    ending: tuple[int, ...]
    """The seats this seat may end the game without now (`Peer.end_set`; () if none)."""
    end_proposer: int | None
    """The seat that proposes that end."""
    answered_buy: bool
    buy_closes_at: float | None
    """When the open Køb! window's time runs out on the session's clock (None: no window
    open here)."""
    last_claims: tuple[int, ...]
    """Who called Køb! in the last resolved window, the buyer first."""
    connected: tuple[tuple[int, bool], ...]
    """(seat, whether its connection is up) for every other seat."""
    news: tuple[News, ...] = ()
    """What happened since the view before this one."""
    last_votes: tuple[tuple[int, int], ...] = ()
    """Under `buy_priority = first`: (caller, on how many screens it was first) in the
    last resolved window, in the order the race ranked them."""
    last_screens: int = 0
    """How many seats reported what they saw in that window."""

    @property
    def state(self) -> GameState:
        return self.view.state

    @property
    def seat(self) -> int:
        return self.view.seat
