"""The votes on the step in flight: a step received or proposed, the ACKs and NACKs on
it, and its commit once every seat has ACKed the same state hash.

`Voting` is the half of a `Peer` (`log/peer.py`) that owns the pending step
(`log/pending.py`) and the outbox its calls fill with events (`log/events.py`); the
peer adds what it owes (`duties`: proposing, answering Køb!, ending a game) and whom
the table waits for (`waiting`). Refusals, dissent, equivocation and the freeze are
recorded by `log/trouble.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from p2p_rommy.errors import ProtocolError
from p2p_rommy.limits import FUTURE_STEPS
from p2p_rommy.log.buy_window import BuyWindows
from p2p_rommy.log.buying import Buying
from p2p_rommy.log.catch_up import CatchUp
from p2p_rommy.log.committed import CommittedRecords
from p2p_rommy.log.events import Committed, Event, Send
from p2p_rommy.log.messages import Ack, BuyAnswer, BuyStep, Chat, EndStep, Nack, Step, Sync
from p2p_rommy.log.pending import EarlyVotes, Pending
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
    future: dict[int, dict[int, bytes]]
    """Steps that came before their turn (n -> seat -> envelope), bounded ahead."""
    progress_at: float
    """When the table last moved on (this seat's clock): stalls count from it."""
    step_clock: StepClock | None
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

    def on_step(self, step: Step, envelope: bytes, now: float, via: int | None = None) -> None:
        replica = self.replica
        source = source_name(via)
        if step.n <= replica.n:
            committed = self.records[step.n - 1].step if step.n >= 1 else None
            if committed is not None and same_body(committed, envelope):
                if step.n < replica.n and not self.catch_up.solicited(via, step.n):
                    self.refuse(f"from {source}: step {step.n} again, already committed (a replay)")
            elif committed is not None and decode_step(committed).seat == step.seat:
                self.emit(self.trouble.equivocation(committed, envelope))
            else:
                self.refuse(f"from {source}: seat {step.seat}'s step {step.n} out of turn")
            return
        if step.n > replica.n + 1:
            if step.n > replica.n + FUTURE_STEPS:
                self.refuse(f"from {source}: step {step.n} is too far ahead")
            else:
                self.future.setdefault(step.n, {}).setdefault(step.seat, envelope)
            return
        if isinstance(step.body, EndStep):
            self._on_end(step, step.body, envelope, now, source)
            return
        expected: int | None
        pending = self.pending
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
            culprit = error.sender if isinstance(error.sender, int) else step.seat
            self.emit(
                self.trouble.freeze(
                    f"refused step {step.n} from seat {step.seat + 1}: {reason}", culprit
                )
            )
            return
        acks, nack = self.early.take(step.n)
        self.pending = Pending(step, envelope, tentative, acks)
        self.progress_at = now
        self._ack(tentative.hash)
        if nack is not None:
            self._disagreement(*nack)
            return
        self.try_commit(now)

    def _on_end(self, step: Step, body: EndStep, envelope: bytes, now: float, source: str) -> None:
        """A proposal to end the game without a seat: signed only by a peer that is
        itself waiting for that seat."""
        replaced = self.pending
        if replaced is not None and same_body(replaced.envelope, envelope):
            return
        absent = body.absent
        waiting = self.waiting(now)
        if waiting is None or waiting.seat != absent or absent == self.seat:
            self.refuse(
                f"from {source}: seat {step.seat} proposes ending the game without "
                f"seat {absent}, which this seat is not waiting for"
            )
            return
        try:
            tentative = self.replica.validate(step)
        except ProtocolError as error:
            self.refuse(f"from {source}: {error}")
            return
        self.early.acks.pop(step.n, None)  # the ACKs of the step this one replaces
        nacks = replaced.nacks if replaced is not None else {}
        self.pending = Pending(step, envelope, tentative, nacks=nacks)
        self._ack(tentative.hash)
        self.try_commit(now)

    def _ack(self, state: bytes) -> None:
        """This seat's ACK of the pending step, held and sent."""
        assert self.pending is not None
        ack = self.sign(Ack(self.replica.game, self.pending.n, self.seat, state))
        self.pending.acks[self.seat] = (state, ack)
        self.send(ack)

    def _on_nack(self, nack: Nack) -> None:
        """A seat refused the step due now. This seat's own validation of that step
        decides: refused here too, it names the proposer; valid here, the table
        disagrees and stops."""
        if nack.game != self.replica.game or nack.n != self.replica.n + 1:
            return
        if self.pending is None:
            self.early.nacks.setdefault(nack.n, (nack.seat, inert(nack.reason)))
            return  # wait for the step itself
        self._disagreement(nack.seat, nack.reason)

    def _disagreement(self, seat: int, reason: str) -> None:
        """`seat` refused the pending step, which this seat found valid. Recorded with its
        reason; the table waits for that seat, and the others may end the game without it."""
        pending = self.pending
        assert pending is not None
        self.send(pending.envelope)  # lets the refuser compare the step
        if seat not in pending.nacks:
            pending.nacks[seat] = reason
            self.emit(self.trouble.dissent(Dissent(seat, pending.n, reason)))

    def _on_ack(self, ack: Ack, envelope: bytes) -> None:
        if ack.n <= self.replica.n:
            return
        if ack.n > self.replica.n + FUTURE_STEPS:
            self.refuse(f"seat {ack.seat}: an ACK of step {ack.n}, too far ahead")
            return
        pending = self.pending
        if pending is not None and ack.n == pending.n:
            if pending.tentative.kind == "end" and ack.state != pending.tentative.hash:
                return  # an ACK of the step the end replaced
            if ack.seat in pending.nacks:
                return  # it refused this step: an ACK of it now contradicts its own NACK
            held = pending.acks
        else:
            held = self.early.acks.setdefault(ack.n, {})
        if ack.seat in held:
            if not same_body(held[ack.seat][1], envelope):
                self.emit(self.trouble.equivocation(held[ack.seat][1], envelope, "ACKs"))
            return
        held[ack.seat] = (ack.state, envelope)

    # --- committing -------------------------------------------------------------------

    def try_commit(self, now: float) -> None:
        while not self.frozen and self.pending is not None:
            pending = self.pending
            tentative = pending.tentative
            for seat, (state, _) in pending.acks.items():
                if state != tentative.hash:
                    self.emit(
                        self.trouble.freeze(
                            f"state hash mismatch at step {tentative.n}: seat {seat + 1} has "
                            f"{state.hex()[:16]}, this seat has {tentative.hash.hex()[:16]}"
                        )
                    )
                    self.send(pending.envelope)  # evidence, if it was two-faced
                    return
            if pending.missing(self.players, self.replica.pending_absent()):
                return
            record = pending.record(self.players)
            opened_before = self.replica.buy_window
            try:
                self.replica.commit()
            except ProtocolError as error:  # the round audit, or a deferred proof, failed
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
            self._out.append(Committed(pending.n, pending.step, record))
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
            self.on_step(decode_step(following), following, now)

    # --- proposing --------------------------------------------------------------------

    def proposed(self, step: Step, now: float, replaced: Pending | None = None) -> None:
        """This seat's own step, held as pending (`replaced`: the step an end replaces),
        sent with its ACK."""
        envelope = self.sign(step)
        tentative = self.replica.tentative
        assert tentative is not None
        acks, _ = self.early.take(step.n)
        nacks = replaced.nacks if replaced is not None else {}
        self.pending = Pending(step, envelope, tentative, acks, nacks)
        self.progress_at = now
        if self.step_clock is not None:
            self.step_clock.proposed(step.n, now)
        self.send(envelope)
        self._ack(tentative.hash)
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
