"""Stalls: a seat that keeps the table waiting longer than `stall_after` is reported,
once for each thing it owes, naming it and what it owes. Not consensus: every peer
judges by its own clock, and a report changes nothing in the game (the players may then
end it without that seat). Sans-IO: time is passed in. `seat` fields count from 0; text
for people counts from 1, as "you are seat N of M" does."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from p2p_rommy.i18n import Phrase

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Waiting:
    """The table waits for `seat` to send `what`, since `since` (this seat's clock)."""

    seat: int
    what: Phrase
    since: float


@dataclass(frozen=True, slots=True)
class Stall:
    """A seat kept the table waiting for `seconds`."""

    seat: int
    what: Phrase
    seconds: float

    def __str__(self) -> str:
        return f"seat {self.seat + 1} has not sent {self.what} for {self.seconds:.0f} s"


class StallWatch:
    """The stalls this seat has seen, each reported once."""

    def __init__(self, seat: int, stall_after: float) -> None:
        self.seat = seat
        self.stall_after = stall_after
        self.stalls: list[Stall] = []

    def check(self, waiting: Waiting | None, now: float) -> Stall | None:
        """A new stall if the table has waited on another seat for too long."""
        if (
            waiting is None
            or waiting.seat == self.seat
            or now - waiting.since < self.stall_after
            or any(s.seat == waiting.seat and s.what == waiting.what for s in self.stalls)
        ):
            return None
        stall = Stall(waiting.seat, waiting.what, now - waiting.since)
        log.warning("stalled: %s", stall)
        self.stalls.append(stall)
        return stall
