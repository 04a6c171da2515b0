"""The votes on the step in flight: a step received or proposed, the ACKs and NACKs on
it, and its commit once every seat has ACKed the same state hash.

`Voting` is the half of a `Peer` (`log/peer.py`) that owns the pending step
(`log/pending.py`) and the outbox its calls fill with events (`log/events.py`); on it
stand what this seat owes (`log/duties.py`), ending a game without a seat
(`log/ending.py`: `named`, `end_wait`) and catching up (`log/catching_up.py`); the
peer adds whom the table waits for (`waiting`). Refusals, dissent, equivocation and the freeze are
recorded by `log/trouble.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.limits import FUTURE_STEPS
from p2p_rommy.log.buy_window import BuyWindows
from p2p_rommy.log.buying import Buying
from p2p_rommy.log.catch_up import CatchUp
from p2p_rommy.log.committed import CommittedRecords
from p2p_rommy.log.events import Acked, Committed, Event, Send
from p2p_rommy.log.messages import (
    Ack,
    BuyAnswer,
    BuyStep,
    Chat,
    EndStep,
    Nack,
    Record,
    Step,
    Sync,
)
from p2p_rommy.log.pending import EarlyVotes, Held, Pending
from p2p_rommy.log.replica import SeatedReplica
from p2p_rommy.log.stalls import Waiting
from p2p_rommy.log.trouble import Dissent, Trouble, decode_step
from p2p_rommy.wire.identity import same_body
from p2p_rommy.wire.text import inert


class StepClock(Protocol):
    """Whoever times a peer's steps (the bench): told of its own proposals and of every
    commit, with the peer's clock."""

    def proposed(self, n: int, now: float) -> None: ...

    def committed(self, n: int, now: float) -> None: ...


class Voting:
    """The step in flight and the votes on it, for one seat (see the module docstring)."""

    replica: SeatedReplica
    seat: int
    players: int
    records: CommittedRecords
    catch_up: CatchUp
    trouble: Trouble
    buy_windows: BuyWindows
    buying: Buying
    pending: Pending | None
    """The step in flight, with the votes on it."""
    early: EarlyVotes
    """ACKs and a NACK that came before their step."""
    refused_step: bytes | None
    """The last step this seat refused (compared with what a frozen table is sent)."""
    held_end: bytes | None
    """An end this seat has not signed yet: it has not waited long enough itself."""
    heard: dict[int, float]
    """When each seat last sent something new toward the step in flight."""
    overdue: dict[int, int]
    """Seat -> the step number for which this seat had waited its stall limit for that
    seat before it was heard from again (it came back late)."""
    future: dict[int, dict[int, tuple[Step, bytes]]]
    """Steps that came before their turn (n -> seat -> the step, opened, and its
    envelope), bounded ahead."""
    progress_at: float
    """When the table last moved on (this seat's clock): stalls count from it."""
    step_clock: StepClock | None
    commit_failed: bool = False
    """A commit found a cheat (the round's audit): the table stops for good."""
    _out: list[Event]
    _round_index: int

    @property
    def frozen(self) -> str | None:
        return self.trouble.frozen

    def duties(self, now: float) -> None:
        """Whatever this seat owes now (the peer's part)."""
        raise NotImplementedError

    def waiting(self, now: float) -> Waiting | None:
        """Whom the table waits for now (the peer's part)."""
        raise NotImplementedError

    def waited(self, seat: int, now: float) -> float | None:
        """How long this seat has waited for `seat` (the peer's part)."""
        raise NotImplementedError

    def named(self, seat: int) -> bool:
        """This seat's own checking froze the table naming `seat` (`log/ending.py`)."""
        raise NotImplementedError

    @property
    def end_wait(self) -> float:
        """How long a seat waits for another before it signs an end without it
        (`log/ending.py`)."""
        raise NotImplementedError

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
        waited = self.waited(seat, now)
        if seat != self.seat and waited is not None and waited >= self.end_wait:
            self.overdue[seat] = self.replica.n + 1

    # --- the outbox ------------------------------------------------------------------

    def _call(self, action: Callable[[], None]) -> list[Event]:
        self._out = []
        action()
        out, self._out = self._out, []
        return out

    def emit(self, events: Iterable[Event]) -> None:
        """Add `events` to what the running call returns."""
        self._out += events

    def send(self, envelope: bytes) -> None:
        self._out.append(Send(envelope))

    def sign(self, message: Step | Ack | Nack | BuyAnswer | Sync | Chat) -> bytes:
        return self.replica.identity.sign(message.encode())

    def refuse(self, reason: str) -> None:
        self.emit(self.trouble.refuse(reason))

    def cheat_found(self, error: ProtocolError) -> None:
        self.emit(self.trouble.cheat_found(error))

    def deferred_first(self) -> bool:
        """Verify every shuffle proof this seat took on trust (SPEC §3.3), as it must
        before it handles another seat's step, end or NACK: False if one failed (the
        table froze, naming its shuffler) or the table is frozen."""
        if self.frozen:
            return False
        if self.replica.deferred:
            try:
                self.replica.check_deferred()
            except ProtocolError as error:
                self.cheat_found(error)
                return False
        return True

    def on_step(self, step: Step, envelope: bytes, now: float, via: int | None = None) -> None:
        """Every step from another seat comes through here (received, kept from before
        its turn, or held): its deferred proofs are verified first."""
        if step.seat != self.seat and not self.deferred_first():
            return
        replica = self.replica
        source = source_name(via)
        if step.n <= replica.n:
            record = self.records[step.n - 1] if step.n >= 1 else None
            committed = record.decoded_step() if record is not None else None
            if record is not None and same_body(record.step, envelope):
                if step.n < replica.n and not self.catch_up.solicited(via, step.n):
                    self.refuse(f"from {source}: step {step.n} again, already committed (a replay)")
            elif committed is not None and (
                isinstance(committed.body, EndStep) or isinstance(step.body, EndStep)
            ):
                pass  # an end and the step it replaced (or would have): moot, nobody's fault
            elif record is not None and committed is not None and committed.seat == step.seat:
                self.emit(self.trouble.equivocation(record.step, envelope))
            else:
                self.refuse(f"from {source}: seat {step.seat}'s step {step.n} out of turn")
            return
        if step.n > replica.n + 1:
            if step.n > replica.n + FUTURE_STEPS:
                self.refuse(f"from {source}: step {step.n} is too far ahead")
            else:
                ahead = self.future.setdefault(step.n, {})
                kept = ahead.setdefault(step.seat, (step, envelope))
                if not same_body(kept[1], envelope):  # two steps from one seat for one number
                    self.emit(self.trouble.equivocation(kept[1], envelope))
            return
        if isinstance(step.body, EndStep):
            self._on_end(step, step.body, envelope, now, source)
            return
        expected: int | None
        pending = self.pending
        if pending is not None and pending.tentative.kind == "end":
            # the step the end replaced (or another for its number): moot, but two of
            # them from one seat are still its two steps for one number (proof that a
            # seat restarted with its own end in flight learns from a frozen seat)
            seen = self.future.setdefault(step.n, {}).setdefault(step.seat, (step, envelope))
            if not same_body(seen[1], envelope):
                self.emit(self.trouble.equivocation(seen[1], envelope))
            return
        if pending is not None:
            # the step due is already held (the deck seat has moved on with it)
            expected = pending.tentative.proposer
            if step.seat == expected and not same_body(envelope, pending.envelope):
                self.emit(self.trouble.equivocation(pending.envelope, envelope))
                return
        else:
            expected = replica.expected_proposer()
        if step.seat != expected:
            self.refuse(
                f"from {source}: seat {step.seat} proposed step {step.n} out of turn "
                f"(it is seat {expected}'s step)"
            )
            return
        if pending is not None:
            return  # the same step again
        if isinstance(step.body, BuyStep):
            two_faced = self.buying.two_faced(step.body)
            if two_faced:  # a seat answered one way here and another to the proposer
                self.emit(two_faced)
                return
        try:
            tentative = replica.validate(step)
        except ProtocolError as error:
            reason = error.reason
            self.refused_step = envelope
            self.send(self.sign(Nack(replica.game, step.n, self.seat, reason[:500])))
            self.send(envelope)  # its proposer's signed data: every seat checks it itself
            culprit = error.sender if isinstance(error.sender, int) else step.seat
            self.emit(
                self.trouble.freeze(
                    N_("refused step {n} from seat {value}: {reason}").format(
                        n=step.n, value=step.seat + 1, reason=reason
                    ),
                    culprit,
                )
            )
            return
        self.came_back(step.seat, now)  # the step the table waited for, perhaps late
        acks, nack = self._take_early(step.n)
        self.pending = Pending(step, envelope, tentative, acks)
        self.progress_at = now
        self._ack()
        if nack is not None:
            self._disagreement(*nack)
            return
        self.try_commit(now)

    def _on_end(self, step: Step, body: EndStep, envelope: bytes, now: float, source: str) -> None:
        """A proposal to end the game without some seats: signed only by a peer that has
        itself waited the stall limit for each of them, for the message it owes now, with
        nothing from it since (SPEC §4.4). Until then it is held, and checked again as
        time passes (`tick`). It replaces a pending end that leaves out fewer seats."""
        replaced = self.pending
        if replaced is not None and same_body(replaced.envelope, envelope):
            return
        if self.seat in body.absent:
            self.refuse(f"from {source}: seat {step.seat} proposes ending the game without it")
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
        self.pending = Pending(step, envelope, tentative, acks, nacks)
        self.progress_at = now  # a new step in flight: the wait for its ACKs counts from now
        self._ack()
        self.try_commit(now)

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

    def _ack(self) -> None:
        """This seat's ACK of the pending step (its digest and state hash), held and sent."""
        pending = self.pending
        assert pending is not None
        state = pending.tentative.hash
        ack = Ack(self.replica.game, pending.n, self.seat, pending.digest, state)
        envelope = self.sign(ack)
        pending.acks[self.seat] = (ack, envelope)
        self._out.append(Acked(pending.n, pending.envelope, envelope))  # on disk first
        self.send(envelope)

    def _take_early(self, n: int) -> tuple[Held, tuple[int, str] | None]:
        """The votes held for the next step `n`, which has come. An ACK that came while
        this seat was further behind could not be known as an end's then; it is now (by
        its state hash), and goes with the ACKs of that end, not this step's."""
        acks, nack = self.early.take(n)
        ends = self.replica.end_hashes()
        for seat, (vote, envelope) in list(acks.items()):
            if vote.state in ends:
                del acks[seat]
                self.early.end_acks(n, vote.state).setdefault(seat, (vote, envelope))
        return acks, nack

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
            return
        if ack.n > self.replica.n + FUTURE_STEPS:
            self.refuse(f"seat {ack.seat}: an ACK of step {ack.n}, too far ahead")
            return
        pending = self.pending
        if ack.n == self.replica.n + 1 and ack.state in self.replica.end_hashes():
            # an ACK of an end, which may come before the end itself: kept apart from
            # the ACKs of the step the end replaces (a seat may sign both)
            if pending is not None and pending.tentative.hash == ack.state:
                held = pending.acks
            else:
                held = self.early.end_acks(ack.n, ack.state)
        elif pending is not None and ack.n == pending.n:
            if pending.tentative.kind == "end" and ack.step != pending.digest:
                return  # an ACK of the step the end replaced
            if ack.seat in pending.nacks:
                return  # it refused this step: an ACK of it now contradicts its own NACK
            held = pending.acks
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
            return
        held[ack.seat] = (ack, envelope)
        if ack.n == self.replica.n + 1:  # new word on the step in flight (once per seat)
            self.came_back(ack.seat, now)
            self.heard[ack.seat] = now

    # --- committing -------------------------------------------------------------------

    def try_commit(self, now: float) -> None:
        while self.pending is not None and (not self.frozen or self._ending_culprit()):
            pending = self.pending
            tentative = pending.tentative
            for seat, (ack, _) in list(pending.acks.items()):
                if ack.step != pending.digest:
                    # the ACKer holds another step from the proposer: the proposer's two
                    # steps (or damage), never the ACKer's cheat; the step sent to all lets
                    # a seat holding the other one prove it
                    self.emit(
                        self.trouble.freeze(
                            N_(
                                "seat {value} ACKed another step {n} than the one this "
                                "seat holds from seat {value2}"
                            ).format(value=seat + 1, n=tentative.n, value2=pending.step.seat + 1)
                        )
                    )
                    self.send(pending.envelope)
                    return
                state = ack.state
                if state != tentative.hash:
                    # the same step, another state: its signed word against this seat's own
                    # validation. It refused the step like a NACK would (the step goes to
                    # all: a two-faced proposer is proven by it), and the others may end the
                    # game without it
                    del pending.acks[seat]
                    self._disagreement(
                        seat,
                        f"it ACKed another state ({state.hex()[:16]}, "
                        f"not {tentative.hash.hex()[:16]})",
                    )
            if pending.missing(self.players, self.replica.pending_absent()):
                return
            record = pending.record(self.players)
            opened_before = self.replica.buy_window
            try:
                self.replica.commit()
            except ProtocolError as error:  # the round audit, or a deferred proof, failed
                self.commit_failed = True  # half committed: no end can build on it
                self.cheat_found(error)
                return
            window = self.replica.buy_window
            if window is not None and window != opened_before:
                self.buy_windows.opened(window, now)
            self.records.append(record)
            if self.replica.state.round_index != self._round_index:
                self._round_index = self.replica.state.round_index
                self.records.release()  # a finished round's records: on disk only
            self.progress_at = now
            self._out.append(Committed(pending.n, pending.step, record, tentative.claims))
            if self.replica.over:
                self._last_word(record)
            if self.step_clock is not None:
                self.step_clock.committed(tentative.n, now)
            self.pending = None
            self.early.forget(tentative.n)
            self.buying.forget_closed()
            early = self.future.pop(self.replica.n + 1, {})
            expected = self.replica.expected_proposer()
            following = early.get(expected) if expected is not None else None
            for seat in early:
                if seat != expected:
                    self.refuse(f"seat {seat} proposed step {self.replica.n + 1} out of turn")
            if following is None:
                self.duties(now)
                return
            self.on_step(*following, now)

    def _ending_culprit(self) -> bool:
        """A frozen peer's pending step is an end without the seat it named."""
        return self.named_alone(self.replica.pending_absent())

    def _last_word(self, record: Record) -> None:
        """The match is over here: its last step and every ACK of it go to all once more
        before this seat leaves (SPEC §4.4). A seat that lost one of those ACKs would
        otherwise hold the last step in flight for ever, asking seats that have left."""
        self.send(record.step)
        for ack in record.acks:
            if ack:
                self.send(ack)

    # --- proposing --------------------------------------------------------------------

    def proposed(self, step: Step, now: float, replaced: Pending | None = None) -> None:
        """This seat's own step, held as pending (`replaced`: the step an end replaces),
        sent with its ACK."""
        envelope = self.sign(step)
        tentative = self.replica.tentative
        assert tentative is not None
        if tentative.kind == "end":
            acks = self.early.take_end(step.n, tentative.hash)
        else:
            acks, _ = self._take_early(step.n)
        nacks = replaced.nacks if replaced is not None else {}
        self.pending = Pending(step, envelope, tentative, acks, nacks)
        self.progress_at = now
        if self.step_clock is not None:
            self.step_clock.proposed(step.n, now)
        self.send(envelope)
        self._ack()
        self.try_commit(now)

    def _compare_evidence(self, step: Step, envelope: bytes) -> None:
        """While frozen, a step sent as evidence may prove its proposer two-faced."""
        held = [self.pending.envelope if self.pending else None, self.refused_step]
        if 1 <= step.n <= len(self.records):
            held.append(self.records[step.n - 1].step)
        for mine in held:
            if mine is None or same_body(mine, envelope):
                continue
            other = decode_step(mine)
            if other.n == step.n and other.seat == step.seat:
                self.emit(self.trouble.equivocation(mine, envelope))
                return


def source_name(via: int | None) -> str:
    """Who brought a message, for a refusal's reason."""
    return "a peer" if via is None else f"seat {via}"
