"""Whom the table waits for, as one peer sees it: the seat whose ACK of the step in
flight is missing (one that refused the step first), an eligible seat that has not
answered Køb!, or the seat whose step is due. Stalls and ends count from it."""

from __future__ import annotations

from p2p_rommy.i18n import N_, Phrase
from p2p_rommy.log.buy_seal import sealed
from p2p_rommy.log.buy_window import BuyWindows
from p2p_rommy.log.pending import Pending
from p2p_rommy.log.replica import Replica
from p2p_rommy.log.stalls import Waiting

_CONFIRM = Phrase.of(N_("its confirmation of the last move"))
_REFUSED = Phrase.of(N_("its confirmation of the last move (it refused the move)"))
_ANSWER = Phrase.of(N_("its answer to Køb!"))
"""What a waited-for seat owes, in words (asked at every tick: made once)."""


def waiting_for(
    replica: Replica, pending: Pending | None, windows: BuyWindows, since: float
) -> Waiting | None:
    """Whom the table waits for first, since `since` (when it last moved on), or None."""
    waits = waiting_all(replica, pending, windows, since)
    return waits[0] if waits else None


def waiting_all(
    replica: Replica, pending: Pending | None, windows: BuyWindows, since: float
) -> list[Waiting]:
    """Every seat the table waits for, the one named first first: each missing ACK of
    the step in flight (refusers first), else each eligible seat that has not answered
    Køb!, else the seat whose step is due. An end may leave out any of them (SPEC §4.4)."""
    if replica.over:
        return []
    players = replica.config.players
    if replica.tentative is not None:
        absent = replica.pending_absent()
        missing = (
            pending.missing(players, absent)
            if pending is not None
            else [s for s in range(players) if s not in absent]
        )
        return [
            Waiting(s, _REFUSED if pending is not None and s in pending.nacks else _CONFIRM, since)
            for s in missing
        ]
    window = replica.window
    if window is not None:
        eligible = window.eligible  # the observers of a race wait for them
        owed = (*eligible, *(s for s in window.answerers if s not in eligible))
        unanswered = windows.unsealed(window.number, eligible) if sealed(replica.state) else []
        unanswered = unanswered or windows.unanswered(window.number, owed)
        if unanswered:
            return [Waiting(s, _ANSWER, since) for s in unanswered]
    due = replica.due()
    if due is None:
        return []
    return [Waiting(due.seat, due.what, since)]
