"""The other seats' votes on the step in flight: their ACKs and NACKs as they come.

An ACK binds a step's digest and the state hash its sender computed; it may come before
its step (held in `early`), and an ACK of an end may come before the end itself. A NACK,
or an ACK of another state, is a seat refusing a step this seat found valid: recorded
with its reason (`Dissent`), and the table waits for that seat. Counting them to a
commit is `log/committing.py`'s; this seat's own ACK is `Voting._ack`.
"""

from __future__ import annotations

from p2p_rommy.i18n import N_
from p2p_rommy.limits import FUTURE_STEPS
from p2p_rommy.log.messages import Ack, Nack
from p2p_rommy.log.trouble import Dissent
from p2p_rommy.log.voting import Voting
from p2p_rommy.wire.identity import same_body
from p2p_rommy.wire.text import inert


class Votes(Voting):
    """ACKs and NACKs from the other seats (see the module docstring)."""

    def _on_nack(self, nack: Nack, now: float) -> None:
        """A seat refused the step due now. This seat's own validation of that step
        decides: refused here too, it names the proposer; valid here, the table
        disagrees and stops. Deferred proofs are verified first."""
        if nack.seat != self.seat and not self.deferred_first():
            return
        if nack.game != self.replica.game or nack.n != self.replica.n + 1:
            return
        if self.pending is None:
            if nack.n not in self.early.nacks:
                self.early.nacks[nack.n] = (nack.seat, inert(nack.reason))
                self.came_back(nack.seat, now)
                self.heard[nack.seat] = now
            return  # wait for the step itself
        if nack.seat not in self.pending.nacks:
            self.came_back(nack.seat, now)
            self.heard[nack.seat] = now
        self._disagreement(nack.seat, nack.reason)

    def _disagreement(self, seat: int, reason: str) -> None:
        """`seat` refused the pending step, which this seat found valid. Recorded with its
        reason; the table waits for that seat, and the others may end the game without it."""
        pending = self.pending
        assert pending is not None
        self.send(pending.envelope)  # lets the refuser compare the step
        if seat not in pending.nacks:
            reason = inert(reason)
            pending.nacks[seat] = reason
            self.emit(self.trouble.dissent(Dissent(seat, pending.n, reason)))

    def _on_ack(self, ack: Ack, envelope: bytes, now: float) -> None:
        if ack.n <= self.replica.n:
            if ack.n == self.replica.n:
                self._overturn_ack(ack, envelope, now)  # an end may outrank that step
            return
        if ack.n > self.replica.n + FUTURE_STEPS:
            self.refuse(f"seat {ack.seat}: an ACK of step {ack.n}, too far ahead")
            return
        pending = self.pending
        if (
            pending is not None
            and ack.n == pending.n
            and ack.state == pending.tentative.hash
            and pending.tentative.kind != "end"
        ):
            # the common case, the state this seat holds for the step in flight: never an
            # end's (`Replica._hash_after`), so the end hashes need not be worked out for it
            if ack.seat in pending.nacks:
                return  # it refused this step: an ACK of it now contradicts its own NACK
            held = pending.acks
        elif ack.n == self.replica.n + 1 and ack.state in self.replica.end_hashes():
            # an ACK of an end, which may come before the end itself: kept apart from
            # the ACKs of the step the end replaces (a seat may sign both)
            if pending is not None and pending.tentative.hash == ack.state:
                held = pending.acks
            else:
                held = self.early.end_acks(ack.n, ack.state)
        elif pending is not None and ack.n == pending.n:
            held = pending.acks
            if pending.tentative.kind == "end" and ack.step != pending.digest:
                replaced = self.replaced  # an ACK of the step the end replaced: kept
                if replaced is None or replaced.n != ack.n or ack.step != replaced.digest:
                    return  # in case the end is overtaken (`EndVotes._end_overtaken`)
                held = replaced.acks
            elif ack.seat in pending.nacks:
                return  # it refused this step: an ACK of it now contradicts its own NACK
        else:
            held = self.early.acks.setdefault(ack.n, {})
        if ack.seat in held:
            earlier, first = held[ack.seat]
            if same_body(first, envelope):
                return
            if earlier.step == ack.step:
                # one step, two states: the ACKer contradicts itself (proof). ACKs of two
                # different steps for one number are not its doing: two steps are the
                # proposer's (an end's replacement, or equivocation shown by the steps).
                self.emit(self.trouble.equivocation(first, envelope, N_("ACKs")))
            elif pending is not None and ack.n == pending.n and ack.step == pending.digest:
                held[ack.seat] = (ack, envelope)  # its ACK of the step held here
            elif ack.n > self.replica.n + 1 and held is self.early.acks.get(ack.n):
                # a second step's ACK for a number still ahead: an end may replace the
                # first (its ACKs are known by their state once it is next: `_ousted`);
                # kept by its state, a few states per number
                ends = self.early.ends.setdefault(ack.n, {})
                if ack.state in ends or len(ends) < self.players:
                    ends.setdefault(ack.state, {}).setdefault(ack.seat, (ack, envelope))
            return
        held[ack.seat] = (ack, envelope)
        if ack.n == self.replica.n + 1:  # new word on the step in flight (once per seat)
            self.came_back(ack.seat, now)
            self.heard[ack.seat] = now
