"""What a `Peer` call gives back: frozen events, in the order they happened.

The peer never sends, writes or draws anything itself. Every call (`receive`, `tick`,
`submit`, ...) returns a list of these; whoever drives the peer (the session on a
network, a test on a logical clock, a simulator) performs them: `Send` and `SendTo`
go to the mesh, `Committed` to the transcript and the screen, `Acked` to disk (before
the sends that follow it), the rest to the log and
the screen. The shape of `lobby/host.py`'s effects, for the same reason: values out,
so the core runs anywhere and is replayed by its tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from p2p_rommy.log.messages import Record, Step
from p2p_rommy.log.stalls import Stall


@dataclass(frozen=True, slots=True)
class Send:
    """Send `envelope` to every other seat."""

    envelope: bytes


@dataclass(frozen=True, slots=True)
class SendTo:
    """Send `envelope` to `seat` only (catch-up)."""

    seat: int
    envelope: bytes


@dataclass(frozen=True, slots=True)
class Committed:
    """Step `n` committed: every seat ACKed the same state. `record` is what goes on disk.
    `claims`: a buy step's claimants as its window's priority ranked them (the first
    bought; `buy_window.buyer_of`), carried with the step itself: one call may commit
    several buy steps (catch-up), and each names its own buyer. `replaces`: an end that
    takes the place of step `n` committed last here (`log/overturn.py`): the record
    replaces the transcript's last one."""

    n: int
    step: Step
    record: Record
    claims: tuple[int, ...] = ()
    replaces: bool = False


@dataclass(frozen=True, slots=True)
class Acked:
    """This seat ACKs step `n` (`step`, its envelope) with `ack`: both go on disk before
    the ACK leaves (SPEC §4.4 "Restart"), so a restarted seat holds to the step it ACKed
    and a different one for that number is its proposer's equivocation, not its own."""

    n: int
    step: bytes
    ack: bytes


@dataclass(frozen=True, slots=True)
class Refused:
    """Input dropped with a reason (for the log); nothing changed."""

    reason: str


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line kept (another seat's, or this seat's own)."""

    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class Stalled:
    """A seat has kept the table waiting too long (reported once per owed message)."""

    stall: Stall


@dataclass(frozen=True, slots=True)
class Frozen:
    """The table stopped: `report` says why, `culprit` names a seat when the evidence does."""

    report: str
    culprit: int | None


@dataclass(frozen=True, slots=True)
class Note:
    """Something worth a line in the log that is nobody's fault (a claim too late)."""

    text: str


Event = Send | SendTo | Committed | Acked | Refused | Chat | Stalled | Frozen | Note


def sends(events: Iterable[Event]) -> list[bytes]:
    """The envelopes for every seat, in order."""
    return [e.envelope for e in events if isinstance(e, Send)]


def sends_to(events: Iterable[Event]) -> list[tuple[int, bytes]]:
    """(seat, envelope) of the messages for one seat only, in order."""
    return [(e.seat, e.envelope) for e in events if isinstance(e, SendTo)]


def records(events: Iterable[Event]) -> list[Record]:
    """The records that committed, in order."""
    return [e.record for e in events if isinstance(e, Committed)]
