"""An end that outranks the last step of the seat it leaves out (SPEC §4.4).

A seat away while its own ACK was the last one a step lacked (paused with the others'
ACKs queued, or its ACK lost with its connection) commits that step when it comes back,
from what it holds; the others never had its ACK, waited their stall limit, and
committed an end without it for the same number. Every signer of that end ACKed the
step and none of them committed it (an honest seat signs no end for a step it has
committed, and one that signed the end takes the step only once another seat the end
needs has moved past it, `EndVotes._end_overtaken`, which none has), so the step
committed nowhere else and never will: the end outranks it. The seat left out takes
its last step back and commits the end instead, once it holds the end and the ACK of
every seat the end does not leave out: the certificate every other seat committed it
on. Its transcript's last record is replaced (`Committed.replaces`). Without this its
log stayed one record apart from the table's for good (found by the simulator with
long absences).
"""

from __future__ import annotations

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import _
from p2p_rommy.log.events import Committed
from p2p_rommy.log.messages import Ack, EndStep, Step, step_digest
from p2p_rommy.log.pending import Pending
from p2p_rommy.log.voting import Voting


class Overturn(Voting):
    """This seat's last step taken back for an end that leaves it out (see the module
    docstring); the end is held in `ousted` like one for the next number."""

    def _overturn_ack(self, ack: Ack, envelope: bytes, now: float) -> bool:
        """An ACK for the step committed last that is an ACK of an end leaving this seat
        out, which may replace that step: kept with the ACKs of ends (`EarlyVotes.ends`
        keeps a number's until the next one commits), and the end committed if that
        makes its certificate whole. False if it is no such ACK."""
        absent = self.replica.overturn_hashes().get(ack.state)
        if absent is None or self.seat not in absent:
            return False
        self.early.end_acks(ack.n, ack.state).setdefault(ack.seat, (ack, envelope))
        if self.ousted is not None:
            self._overturn_now(now)
        return True

    def _end_for_last(self, step: Step, envelope: bytes, now: float) -> bool:
        """An end for the number committed last, leaving this seat out: held (`ousted`)
        and committed in place of that step once its certificate is whole. False if it
        is no such end."""
        body = step.body
        if not isinstance(body, EndStep) or self.seat not in body.absent:
            return False
        if step.n != self.replica.n or not self.replica.overturn_hashes():
            return False
        self.ousted = envelope
        self._overturn_now(now)
        return True

    def _overturn_now(self, now: float) -> None:
        """Commit the end held in `ousted` in place of the step committed last, if every
        seat it does not leave out has ACKed it; drop it if it may not replace it."""
        ousted = self._ousted_end()
        if ousted is None:
            return
        held, step, body = ousted
        try:
            tentative = self.replica.check_overturn(step, body)
        except ProtocolError as error:
            self.ousted = None
            self.refuse(f"an end without this seat: {error}")
            return
        digest = step_digest(held)
        kept = self.early.ends.get(step.n, {}).get(tentative.hash, {})
        acks = {seat: vote for seat, vote in kept.items() if vote[0].step == digest}
        signers = [seat for seat in range(self.players) if seat not in body.absent]
        if any(seat not in acks for seat in signers):
            return
        self.ousted = None
        tentative = self.replica.overturn(step, body)
        record = Pending(step, held, tentative, acks).record(self.players)
        self.replica.commit()
        self.records.replace_last(record)
        self.early.forget(step.n)
        self.early.ends.pop(step.n, None)
        self.pending = None
        self.replaced = None
        self.progress_at = now
        self._out.append(Committed(step.n, step, record, replaces=True))
        self.emit(
            self.trouble.note(
                _(
                    "the others ended the game without this seat at step {n}, which it "
                    "had committed alone: their end takes its place"
                ).format(n=step.n)
            )
        )
