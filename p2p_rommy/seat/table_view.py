"""What a client may see of its seat: one immutable snapshot, published by the session
on the event loop after every call into the peer.

The peer computes in a worker thread; a client that read the peer while it did could
meet a state half way through a step. So the client reads only a `TableView` — taken
on the loop between two calls, when the peer is still — and tells the session what the
player wants (intents). With each view come the events since the last one (`news`):
what committed, chat, refusals, stalls, notes, so no client diffs counters to find them.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2p_rommy.engine.due import Due
from p2p_rommy.engine.state import GameState
from p2p_rommy.engine.view import View
from p2p_rommy.log.buy_race import Race
from p2p_rommy.log.events import Event
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.stalls import Waiting


@dataclass(frozen=True, slots=True)
class TableView:
    """One seat's table at one moment (see the module docstring)."""

    view: View
    """The public state and this seat's own cards."""
    n: int
    """The last committed step."""
    over: bool
    ended: tuple[int, str] | None
    """(absent seat, reason) once the others ended the game without it."""
    forfeited: tuple[int, ...]
    """The seat that forfeits by that end (none at a table of two: abandoned)."""
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
    end_proposers: tuple[int, ...]
    """For each seat, the seat that would propose ending the game without it."""
    answered_buy: bool
    buy_closes_at: float | None
    """When the open Køb! window's time runs out on the session's clock (None: no window
    open here)."""
    last_claims: tuple[int, ...]
    """Who called Køb! in the last resolved window, the buyer first."""
    connected: tuple[tuple[int, bool], ...]
    """(seat, whether its connection is up) for every other seat."""
    news: tuple[Event, ...] = ()
    """The peer's events since the view before this one."""
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


def table_view(
    peer: Peer,
    now: float,
    halted: str | None,
    connected: dict[int, bool],
    news: tuple[Event, ...],
) -> TableView:
    """A snapshot of `peer` (call only while no call into it runs)."""
    replica = peer.replica
    left = peer.buy_windows.seconds_left(replica.buy_window, now)
    return TableView(
        view=replica.view(),
        n=replica.n,
        over=replica.over,
        ended=replica.ended,
        forfeited=replica.forfeited,
        abandoned=replica.abandoned,
        frozen=peer.frozen,
        culprit=peer.culprit if peer.culprit is not None and peer.named(peer.culprit) else None,
        halted=halted,
        my_turn=replica.my_turn(),
        due=replica.due(),
        waiting=peer.waiting(now),
        stall_after=peer.stall_watch.stall_after,
        end_proposers=tuple(replica.end_proposer(s) for s in range(peer.players)),
        answered_buy=peer.answered_buy(),
        buy_closes_at=None if left is None else now + left,
        last_claims=replica.last_claims,
        connected=tuple(sorted(connected.items())),
        news=news,
        last_votes=last_votes(replica.last_race),
        last_screens=0 if replica.last_race is None else replica.last_race.observers,
    )


def last_votes(race: Race | None) -> tuple[tuple[int, int], ...]:
    """(caller, votes) of a settled race, ranked (empty when no race was run)."""
    return () if race is None else tuple((seat, race.votes[seat]) for seat in race.order)
