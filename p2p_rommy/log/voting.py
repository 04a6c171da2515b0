"""The step in flight: a step received or proposed, checked and held as pending, with
this seat's own ACK of it.

`Voting` is the base of a `Peer` (`log/peer.py`) that owns the pending step
(`log/pending.py`) and the outbox its calls fill with events (`log/events.py`). On it
stand, one concept each: the other seats' ACKs and NACKs (`log/votes.py`), the commit
(`log/committing.py`), signing another seat's end (`log/end_votes.py`), what this seat
owes (`log/duties.py`), ending a game without a seat (`log/ending.py`: `named`,
`end_wait`) and catching up (`log/catching_up.py`); the peer adds whom the table waits
for (`waiting`). What one of them asks of another is declared here as a hook. Refusals,
dissent, equivocation and the freeze are recorded by `log/trouble.py`.
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
from p2p_rommy.log.events import Acked, Event, Send
from p2p_rommy.log.messages import (
    Ack,
    BuyAnswer,
    BuyStep,
    Chat,
    EndStep,
    Nack,
    Step,
    Sync,
)
from p2p_rommy.log.pending import EarlyVotes, Held, Pending
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.log.stalls import Waiting
from p2p_rommy.log.trouble import Trouble, decode_step
from p2p_rommy.wire.identity import same_body


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
    ousted: bytes | None
    """An end that leaves this seat out, held until the others' ACKs make it
    committed (`EndVotes._ousted`)."""
    past: dict[int, int]
    """Seat -> the highest step it has signed that it committed (`Peer.past`)."""
    replaced: Pending | None
    """The step an end in flight here replaced, with the ACKs of it that still come
    (`EndVotes._end_overtaken`)."""
    future_ends: dict[int, tuple[Step, bytes]]
    """An end step that came ahead of its number (the latest for each): handled before
    the step it may replace once its number is next (`Committing.try_commit`)."""
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

    def _ousted_end(self) -> tuple[bytes, Step, EndStep] | None:
        """The end held in `ousted` (one that leaves this seat out), opened: its
        envelope, the step and its body; None if none is held or the table froze."""
        held = self.ousted
        if held is None or self.frozen:
            return None
        step = decode_step(held)
        assert isinstance(step.body, EndStep)
        return held, step, step.body

    def _end_for_last(self, step: Step, envelope: bytes, now: float) -> bool:
        """An end that may replace the step committed last (`log/overturn.py`)."""
        raise NotImplementedError

    def _overturn_ack(self, ack: Ack, envelope: bytes, now: float) -> bool:
        """An ACK of such an end (`log/overturn.py`)."""
        raise NotImplementedError

    @property
    def end_wait(self) -> float:
        """How long a seat waits for another before it signs an end without it
        (`log/ending.py`)."""
        raise NotImplementedError

    def came_back(self, seat: int, now: float) -> None:
        """Note that `seat` sent something new toward the step in flight (`log/end_votes.py`)."""
        raise NotImplementedError

    def named_alone(self, absent: tuple[int, ...]) -> bool:
        """An end without exactly the seat this seat named (`log/end_votes.py`)."""
        raise NotImplementedError

    def may_end_without(self, absent: tuple[int, ...], now: float, signing: bool = False) -> bool:
        """Whether this seat may propose or sign an end without `absent` (`log/end_votes.py`)."""
        raise NotImplementedError

    def _on_end(self, step: Step, body: EndStep, envelope: bytes, now: float, source: str) -> None:
        """Another seat's end step, signed or held (`log/end_votes.py`)."""
        raise NotImplementedError

    def keep_replaced(self, replaced: Pending | None) -> None:
        """Keep the step an end replaces (`log/end_votes.py`)."""
        raise NotImplementedError

    def _disagreement(self, seat: int, reason: str) -> None:
        """`seat` refused the step held here (`log/votes.py`)."""
        raise NotImplementedError

    def try_commit(self, now: float) -> None:
        """Commit the step in flight if every seat ACKed its state (`log/committing.py`)."""
        raise NotImplementedError

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
                # an end and the step it replaced (or would have): nobody's fault, and
                # moot but for an end that outranks this seat's last step
                self._end_for_last(step, envelope, now)
            elif record is not None and committed is not None and committed.seat == step.seat:
                self.emit(self.trouble.equivocation(record.step, envelope))
            else:
                self.refuse(f"from {source}: seat {step.seat}'s step {step.n} out of turn")
            return
        if step.n > replica.n + 1:
            if step.n > replica.n + FUTURE_STEPS:
                self.refuse(f"from {source}: step {step.n} is too far ahead")
            else:
                if isinstance(step.body, EndStep):  # kept apart: it may replace the step
                    self.future_ends[step.n] = (step, envelope)  # (the latest one)
                    return
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
        acks, nack = self._take_early(step.n, tentative.hash)
        self.pending = Pending(step, envelope, tentative, acks)
        self.progress_at = now
        self._ack()
        if nack is not None:
            self._disagreement(*nack)
            return
        self.try_commit(now)

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

    def _take_early(self, n: int, state: bytes) -> tuple[Held, tuple[int, str] | None]:
        """The votes held for the next step `n`, which has come and leads to `state`. An
        ACK that came while this seat was further behind could not be known as an end's
        then; it is now (by its state hash), and goes with the ACKs of that end, not this
        step's (an ACK of `state` is no end's: `Replica._hash_after`)."""
        acks, nack = self.early.take(n)
        ends: dict[bytes, tuple[int, ...]] | None = None
        for seat, (vote, envelope) in list(acks.items()):
            if vote.state == state:
                continue
            if ends is None:
                ends = self.replica.end_hashes()
            if vote.state in ends:
                del acks[seat]
                self.early.end_acks(n, vote.state).setdefault(seat, (vote, envelope))
        return acks, nack

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
            acks, _ = self._take_early(step.n, tentative.hash)
        nacks = replaced.nacks if replaced is not None else {}
        if tentative.kind == "end":
            self.keep_replaced(replaced)
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
