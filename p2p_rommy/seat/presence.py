"""Who left the table and who came back, and who signed an end: log lines derived from
what the session already knows (the mesh's links, the committed steps).

A seat whose connection stays down has left (its process quit or crashed): the others
are told it can come back with ``rommy resume``. A seat said to have left whose
connection comes back up is back. The first connection of each seat is neither, and
a link down for a moment (cut and dialled again) is nobody leaving. Once the match is over
nobody is said to leave: the table is closing.

A seat that restarts (``rommy resume``) is sent what it missed, and messages that were
on their way when it stopped: refusing those stale ones is normal, so they are not
counted on its screen while it catches up and for `STALE_GRACE_S` after (the log
file keeps every reason).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from p2p_rommy.i18n import _
from p2p_rommy.limits import DEPARTURE_GRACE_S, STALE_GRACE_S
from p2p_rommy.log.events import Committed, Event, Note, Refused
from p2p_rommy.log.messages import EndStep


class Presence:
    """The links last seen, for one seat (see the module docstring)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.up: dict[int, bool] = {}
        """Each other seat's link as last seen."""
        self.seen: set[int] = set()
        """Seats whose link has been up at least once."""
        self.down_since: dict[int, float] = {}
        """Seats whose link is down, since when (not yet said to have left)."""
        self.gone: set[int] = set()
        """Seats said to have left (and not yet said to be back)."""
        self.caught_up_at: float | None = None
        """When this seat, restarted, finished catching up (None: not yet, or never)."""
        self.restarted = False

    def news(
        self, news: tuple[Event, ...], catching_up: bool, now: float, over: bool = False
    ) -> tuple[Event, ...]:
        """What the client is told of `news`: the end lines and the departures (a link
        down for `DEPARTURE_GRACE_S`) added, stale refusals of a restarted seat dropped
        (see the module docstring)."""
        if catching_up:
            self.restarted = True
        elif self.restarted and self.caught_up_at is None:
            self.caught_up_at = now
        quiet = catching_up or (
            self.caught_up_at is not None and now - self.caught_up_at < STALE_GRACE_S
        )
        if quiet:
            news = tuple(e for e in news if not isinstance(e, Refused))
        return news + end_notes(news, self.names) + self.departures(now, over)

    def changed(self, connected: dict[int, bool], over: bool, now: float) -> tuple[Note, ...]:
        """The links now: a note for each seat that is back; a link that went down is
        a departure once it stays down (`departures`)."""
        notes: list[Note] = []
        for seat, up in sorted(connected.items()):
            was = self.up.get(seat, False)
            self.up[seat] = up
            if up and not was:
                self.down_since.pop(seat, None)
                if seat in self.gone and not over:
                    notes.append(Note(_("{name} is back").format(name=self.names[seat])))
                self.gone.discard(seat)
                self.seen.add(seat)
            elif was and not up:
                self.down_since[seat] = now
        return tuple(notes) + self.departures(now, over)

    def departures(self, now: float, over: bool) -> tuple[Note, ...]:
        """A note for each seat whose link has been down `DEPARTURE_GRACE_S` (a blip,
        a link cut and dialled again, is nobody leaving). None once the match is over."""
        notes: list[Note] = []
        for seat, since in sorted(self.down_since.items()):
            if now - since >= DEPARTURE_GRACE_S:
                del self.down_since[seat]
                if over:
                    continue
                self.gone.add(seat)
                notes.append(
                    Note(
                        _("{name} left the table — can come back with `rommy resume`").format(
                            name=self.names[seat]
                        )
                    )
                )
        return tuple(notes)


def end_notes(news: Iterable[Event], names: Sequence[str]) -> tuple[Note, ...]:
    """A line for each end of the game that committed: without whom, signed by whom
    (the seats whose ACKs the record holds)."""
    notes: list[Note] = []
    for event in news:
        if isinstance(event, Committed) and isinstance(event.step.body, EndStep):
            absent = event.step.body.absent
            signers = [
                names[s] for s, ack in enumerate(event.record.acks) if ack and s not in absent
            ]
            notes.append(
                Note(
                    _("The game was ended without {name}; signed by {signers}").format(
                        name=", ".join(names[s] for s in absent), signers=", ".join(signers)
                    )
                )
            )
    return tuple(notes)
