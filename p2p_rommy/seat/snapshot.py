"""The session's snapshot of its peer for the client: a `TableView` taken between two
calls into the peer, and the peer's events told in the client's words (`News`).

This is the one place that reads the peer for a client, so the client imports nothing
from `log/`: a committed step becomes `Played` (its move), `Bought` (its buyer, from
the committed step's ranked claims: `log.buy_window.buyer_of`) or `Stepped`; chat,
refusals, stalls and notes become `Said`, `Dropped`, `Overdue` and `Line`. What only
the session acts on (sends, ACKs on disk, a freeze) is not news for the screen.
"""

from __future__ import annotations

from collections.abc import Iterable

from p2p_rommy.log.buy_race import Race
from p2p_rommy.log.buy_window import buyer_of
from p2p_rommy.log.events import Chat, Committed, Event, Note, Refused, Stalled
from p2p_rommy.log.messages import BuyStep, MoveStep
from p2p_rommy.log.peer import Peer
from p2p_rommy.seat.table_view import (
    Bought,
    Dropped,
    Line,
    News,
    Overdue,
    Played,
    Said,
    Stepped,
    TableView,
)


def table_view(
    peer: Peer,
    now: float,
    halted: str | None,
    connected: dict[int, bool],
    events: tuple[Event, ...],
) -> TableView:
    """A snapshot of `peer` (call only while no call into it runs), with `events` (those
    since the last snapshot) as its news."""
    replica = peer.replica
    left = peer.buy_windows.seconds_left(replica.buy_window, now)
    ending = peer.end_set(now)
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
        ending=ending,
        end_proposer=replica.end_proposer(ending) if ending else None,
        answered_buy=peer.answered_buy(),
        buy_closes_at=None if left is None else now + left,
        last_claims=replica.last_claims,
        connected=tuple(sorted(connected.items())),
        news=news(events),
        last_votes=last_votes(replica.last_race),
        last_screens=0 if replica.last_race is None else replica.last_race.observers,
    )


def news(events: Iterable[Event]) -> tuple[News, ...]:
    """`events` in the client's words, in order. A committed Køb! step names its own
    buyer, from the claims it committed with (`Committed.claims`): not the replica's
    latest, which is the last of them when one call committed several."""
    told: list[News] = []
    for event in events:
        if isinstance(event, Committed):
            body = event.step.body
            if isinstance(body, MoveStep):
                told.append(Played(event.n, body.move))
            elif isinstance(body, BuyStep):
                told.append(Bought(event.n, buyer_of(event.claims)))
            else:
                told.append(Stepped(event.n))
        elif isinstance(event, Chat):
            told.append(Said(event.seat, event.text))
        elif isinstance(event, Refused):
            told.append(Dropped(event.reason))
        elif isinstance(event, Stalled):
            told.append(Overdue(event.stall))
        elif isinstance(event, Note):
            told.append(Line(event.text))
    return tuple(told)


def last_votes(race: Race | None) -> tuple[tuple[int, int], ...]:
    """(caller, votes) of a settled race, ranked (empty when no race was run)."""
    return () if race is None else tuple((seat, race.votes[seat]) for seat in race.order)
