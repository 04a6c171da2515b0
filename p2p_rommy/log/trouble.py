"""What went wrong at a table, as one peer saw it: refused input, notes, dissent, and
the freeze with its culprit and evidence.

Kept apart from consensus so that the peer's handlers only say what they found; each
finding comes back as an event (`log/events.py`) for whoever drives the peer. A seat is
named only for bytes it signed: two different signed steps (or ACKs) for one number are
kept as proof, and a freeze names the seat whose signed data the evidence blames.
Every reason kept here is inert and on one line (`wire.text.inert`): it may quote a
peer's words, and the screen, the log and `rommy verify` print it.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_, _, say_reason
from p2p_rommy.limits import EVIDENCE_KEPT, REFUSED_KEPT
from p2p_rommy.log.events import Event, Frozen, Note, Refused, Send
from p2p_rommy.log.messages import Ack, BuyAnswer, BuySeal, EndStep, Step, decode
from p2p_rommy.wire.codec import unpack
from p2p_rommy.wire.text import inert

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Dissent:
    """`seat` refused step `n` (signed NACK) although this seat found it valid."""

    seat: int
    n: int
    reason: str

    def __str__(self) -> str:
        who = f"seat {self.seat + 1}"  # people count seats from 1
        return f"{who} refused step {self.n}, which this seat found valid: {self.reason}"


class Trouble:
    """One peer's record of trouble; every method returns the events it gives rise to."""

    def __init__(self) -> None:
        self.frozen: str | None = None
        self.culprit: int | None = None
        """The seat the evidence blames for the freeze, when it does."""
        self.evidence: list[tuple[bytes, bytes]] = []
        self.refused: deque[str] = deque(maxlen=REFUSED_KEPT)
        """The latest refusals (input dropped with a reason), the oldest going first."""
        self.refused_count = 0
        """Refusals since the start (`refused` keeps only the latest)."""
        self.notes: list[str] = []
        """Things worth a line in the log that are nobody's fault (a claim too late)."""
        self.dissents: list[Dissent] = []
        """Seats that refused a step this seat found valid, with their reasons. The table
        does not stop for good: it waits for their ACK, and the others may end the game
        without them (they forfeit)."""

    def refuse(self, reason: str) -> list[Event]:
        reason = inert(reason)  # it may quote a peer's text: one line, nothing that steers
        self.refused.append(reason)
        self.refused_count += 1
        if self.refused_count <= REFUSED_KEPT or self.refused_count % 1000 == 0:
            # a flood of bad input must not become a flood of log lines
            log.warning("refused (%d so far): %s", self.refused_count, reason)
        return [Refused(reason)]

    def note(self, note: str) -> list[Event]:
        note = inert(note)
        log.info("note: %s", note)
        self.notes.append(note)
        return [Note(note)]

    def dissent(self, dissent: Dissent) -> list[Event]:
        dissent = Dissent(dissent.seat, dissent.n, inert(dissent.reason))  # a peer's words
        self.dissents.append(dissent)
        log.warning("%s", dissent)  # its reason is the other seat's words: the log file's
        return self.note(
            _(
                "seat {seat} refused step {n}, which this seat found valid ({why}); the "
                "others may end the game without it"
            ).format(seat=dissent.seat + 1, n=dissent.n, why=say_reason(dissent.reason))
        )

    def freeze(self, report: str, culprit: int | None = None) -> list[Event]:
        if self.frozen:
            return []
        report = inert(report)
        log.error("table frozen: %s", report)
        self.frozen = report
        self.culprit = culprit
        return [Frozen(report, culprit)]

    def cheat_found(self, error: ProtocolError) -> list[Event]:
        """This seat's own checking (not a step it was validating) found a cheat: freeze,
        naming the seat whose signed data it is."""
        return self.freeze(str(error), error.sender if isinstance(error.sender, int) else None)

    def equivocation(self, first: bytes, second: bytes, what: str = N_("steps")) -> list[Event]:
        """Two different messages signed by one seat for one step number: proof. Not
        when one of two steps is an end: it replaces a step its proposer may have
        proposed itself (SPEC §4.4), so the pair proves nothing."""
        if what == "steps" and (is_end(first) or is_end(second)):
            return []
        shown: list[Event] = []
        known = (first, second) in self.evidence or (second, first) in self.evidence
        if not known and len(self.evidence) < EVIDENCE_KEPT:  # a few proofs suffice
            self.evidence.append((first, second))
            shown = [Send(first), Send(second)]  # to all, once: each seat checks it itself
        seat = decode_seat(first)
        report = N_("seat {seat} signed two different {what} for step {n} (kept as proof)").format(
            seat=seat + 1, what=what, n=decode_number(first)
        )
        if self.frozen and self.culprit is None:  # the proof outranks a mismatch report
            log.error("table frozen: %s", report)
            self.frozen, self.culprit = f"{report}; {self.frozen}", seat
            return [Frozen(self.frozen, seat), *shown]
        return self.freeze(report, seat) + shown


def decode_step(envelope: bytes) -> Step:
    """The step inside an envelope this peer already checked."""
    _, _, body, _ = unpack(envelope)
    message = decode(body)
    assert isinstance(message, Step)
    return message


def is_end(envelope: bytes) -> bool:
    """Whether a checked step envelope holds an end step."""
    return isinstance(decode_step(envelope).body, EndStep)


def decode_seat(envelope: bytes) -> int:
    """The signer's seat of a checked step or ACK envelope."""
    _, _, body, _ = unpack(envelope)
    return decode(body).seat


def decode_number(envelope: bytes) -> int:
    """The step number of a checked step or ACK envelope."""
    _, _, body, _ = unpack(envelope)
    message = decode(body)
    if isinstance(message, BuyAnswer | BuySeal):  # two answers in the window of step n
        return message.window
    assert isinstance(message, Step | Ack), "equivocation is proven by steps, ACKs or answers"
    return message.n
