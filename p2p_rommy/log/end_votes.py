"""Signing another seat's end (SPEC §4.4 "Ending without a seat"): when this seat may.

An end step is a vote like any step, but a seat signs it only once it has itself waited
its stall limit for each seat the end leaves out, for the message that seat owes now,
with nothing from it since (or its own checking named that seat): until then the end is
held (`held_end`) and looked at again as time passes. Whether it may, and when a seat
that was waited for came back (too late to undo an end already going round), is decided
here; proposing an end is `log/ending.py`'s, the votes on the step in flight
`log/voting.py`'s.
"""

from __future__ import annotations

from p2p_rommy.errors import ProtocolError
from p2p_rommy.log.messages import EndStep, Step
from p2p_rommy.log.pending import Pending
from p2p_rommy.log.syncing import Syncing
from p2p_rommy.log.trouble import decode_step
from p2p_rommy.log.voting import Voting
from p2p_rommy.wire.identity import same_body


class EndVotes(Voting):
    """When this seat signs another seat's end (see the module docstring)."""

    syncing: Syncing

    def named_alone(self, absent: tuple[int, ...]) -> bool:
        """An end without exactly the seat this seat's own checking named (a frozen
        peer signs no other end)."""
        return len(absent) == 1 and self.named(absent[0])

    def may_end_without(self, absent: tuple[int, ...], now: float, signing: bool = False) -> bool:
        """Whether this seat may propose or sign an end leaving out `absent` (SPEC §4.4):
        it named that seat cheating, or it has itself waited its stall limit for each
        seat of `absent` that a pending end (which it signed) does not already leave out
        (a seat found missing while that end was pending: for its ACK of it). An end
        pending here is replaced only by one that leaves out more. `signing` another
        seat's end for step n+1, a seat that came back only after this seat had waited
        its stall limit for it, for that step (`overdue`), counts as waited for: its
        late word does not undo an end already going round (the signers who have
        signed never take its step: nothing else could commit)."""
        if self.named_alone(absent):
            return True
        covered = self.replica.pending_absent()
        if covered and not set(covered) < set(absent):
            return False
        for seat in absent:
            if seat in covered:
                continue
            if signing and self.overdue.get(seat) == self.replica.n + 1:
                continue
            waited = self.waited(seat, now)
            if waited is None or waited < self.end_wait:
                return False
        return True

    def came_back(self, seat: int, now: float) -> None:
        """`seat` sent something new toward step n+1: if this seat had already waited
        its stall limit for it, it came back late (`overdue`)."""
        if now - self.progress_at < self.end_wait:
            return  # nobody has been waited for that long (every wait is since then)
        waited = self.waited(seat, now)
        if seat != self.seat and waited is not None and waited >= self.end_wait:
            self.overdue[seat] = self.replica.n + 1

    def _on_end(self, step: Step, body: EndStep, envelope: bytes, now: float, source: str) -> None:
        """A proposal to end the game without some seats: signed only by a peer that has
        itself waited the stall limit for each of them, for the message it owes now, with
        nothing from it since (SPEC §4.4). Until then it is held, and checked again as
        time passes (`tick`). It replaces a pending end that leaves out fewer seats."""
        replaced = self.pending
        if replaced is not None and same_body(replaced.envelope, envelope):
            return
        if self.seat in body.absent:
            try:
                self.replica.check_end(step, body)
            except ProtocolError as error:
                self.refuse(f"from {source}: {error}")
                return
            self.ousted = envelope  # never signed here: committed once the others have
            self._ousted(now)
            return
        try:
            self.replica.check_end(step, body)
        except ProtocolError as error:
            self.refuse(f"from {source}: {error}")
            return
        if not self.may_end_without(body.absent, now, signing=True):
            self.held_end = envelope  # not signed yet: this seat has not waited long enough
            return
        self.held_end = None
        tentative = self.replica.validate(step)
        acks = self.early.take_end(step.n, tentative.hash)
        nacks = replaced.nacks if replaced is not None else {}
        self.keep_replaced(replaced)
        self.pending = Pending(step, envelope, tentative, acks, nacks)
        self.progress_at = now  # a new step in flight: the wait for its ACKs counts from now
        self._ack()
        self.try_commit(now)

    def _ousted(self, now: float) -> None:
        """An end that leaves this seat out (it never signs one) commits here too once
        every seat it does not leave out has ACKed it: the table has ended the game
        without this seat, which learns it when it comes back, rather than wait for ever
        on seats that have moved past it (SPEC §4.4 "Ending without a seat"). Until then
        nothing changes: a step in flight here stays, as the end may never commit (this
        seat came back in time by some signer's clock)."""
        ousted = self._ousted_end()
        if ousted is None:
            return
        held, step, body = ousted
        if self._end_for_last(step, held, now):
            return  # it committed the step the end replaces, alone (`log/overturn.py`)
        if step.n != self.replica.n + 1 or self.replica.over:
            self.ousted = None  # the table moved on here (or this end is moot)
            return
        tentative = self.replica.check_end(step, body)
        acks = self.early.end_acks(step.n, tentative.hash)
        early = self.early.acks.get(step.n, {})  # those that came before it was next
        for seat, (vote, envelope) in list(early.items()):
            if vote.state == tentative.hash:
                del early[seat]
                acks.setdefault(seat, (vote, envelope))
        if any(seat not in acks for seat in range(self.players) if seat not in body.absent):
            return
        self.ousted = None
        tentative = self.replica.validate(step)
        replaced = self.pending
        nacks = replaced.nacks if replaced is not None else {}
        acks = self.early.take_end(step.n, tentative.hash)
        self.pending = Pending(step, held, tentative, acks, nacks)
        self.progress_at = now
        self.try_commit(now)

    def _end_overtaken(self, now: float) -> None:
        """An end this seat signed, over a step it had ACKed: once another seat the end
        needs has signed something past that step (`past`), the end can never commit,
        so the step committed without this seat's knowing. (The first of the end's
        needed seats to go past the step committed it without having signed the end: a
        signer takes the step only here, after another. An honest seat signs no end for
        a step it has committed, and the end needs its ACK.) It drops the end and asks
        those seats for the step's record, which it takes like any other (SPEC §4.4).
        Without this it refused that record for ever, and the others ended it out,
        present; and waiting for *every* other signer to be past it, two signers waited
        on each other for ever (seed 3870: a 4-seat table split 2-2)."""
        pending = self.pending
        if pending is None or pending.tentative.kind != "end" or self.frozen:
            return
        n = pending.n
        absent = self.replica.pending_absent()
        signers = [s for s in range(self.players) if s != self.seat and s not in absent]
        if not any(self.past.get(s, -1) >= n for s in signers):
            return
        replaced, self.replaced = self.replaced, None
        self.progress_at = now
        if replaced is not None and replaced.n == n:
            self.pending = replaced  # with the ACKs of it that came meanwhile
            self.replica.tentative = replaced.tentative
            self.try_commit(now)
        else:
            self.pending = None
            self.replica.tentative = None
            expected = self.replica.expected_proposer()
            kept = self.future.pop(n, {})
            following = kept.get(expected) if expected is not None else None
            if following is not None:
                self.on_step(*following, now)
        if self.replica.n < n:
            self.emit(self.syncing.ask(now, signers))

    def keep_replaced(self, replaced: Pending | None) -> None:
        """Keep the step an end replaces (not an end: the first step), with its ACKs,
        in case the end is overtaken (`_end_overtaken`)."""
        if replaced is not None and replaced.tentative.kind != "end":
            self.replaced = replaced

    def _held_end(self, now: float) -> None:
        """An end held back until this seat has waited long enough: signed now if it has;
        dropped once the table moved on."""
        held = self.held_end
        if held is None:
            return
        step = decode_step(held)
        assert isinstance(step.body, EndStep)
        if self.frozen and not self.named_alone(step.body.absent):
            return
        self.held_end = None
        covered = set(self.replica.pending_absent())
        if step.n != self.replica.n + 1 or (covered and not covered < set(step.body.absent)):
            return
        if self.frozen:  # its own checking has named the seat since: signed now
            self._on_end(step, step.body, held, now, "a peer")
            return
        self.on_step(step, held, now)
