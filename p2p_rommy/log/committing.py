"""A step commits once every seat has ACKed the same state hash, and what follows then.

The commit is the one point where the step in flight becomes the game: the replica
applies its `Tentative`, the record goes to disk (`Committed`), a Køb! window that it
opened starts its clock, and the next step, if it came early, is taken up; else this
seat does what it owes now. An ACK of another step, or of another state, stops it
first (the proposer's two steps, or a seat's disagreement).
"""

from __future__ import annotations

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.log.events import Committed
from p2p_rommy.log.messages import Record
from p2p_rommy.log.pending import Pending
from p2p_rommy.log.voting import Voting


class Committing(Voting):
    """Commits the step in flight (see the module docstring)."""

    def try_commit(self, now: float) -> None:
        while self.pending is not None and (not self.frozen or self._ending_culprit()):
            pending = self.pending
            tentative = pending.tentative
            digest, state = pending.digest, tentative.hash
            for ack, _ in pending.acks.values():
                if ack.step != digest or ack.state != state:  # (rare: most ACKs agree)
                    if not self._sort_acks(pending):
                        return
                    break
            absent = self.replica.pending_absent()
            if len(pending.acks) + len(absent) < self.players:
                return  # a seat's ACK is missing still (most ACKs: no list of them needed)
            if pending.missing(self.players, absent):
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
            self.replaced = None
            self.early.forget(tentative.n)
            self.buying.forget_closed()
            end = self.future_ends.pop(self.replica.n + 1, None)
            for n in [n for n in self.future_ends if n <= self.replica.n]:
                del self.future_ends[n]
            if end is not None:  # an end that came early: it may replace the next step
                self.on_step(*end, now)
                if self.pending is not None or self.replica.n > tentative.n:
                    return  # signed (or held as ours to commit): the step it replaces waits
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

    def _sort_acks(self, pending: Pending) -> bool:
        """Act on the ACKs held that do not ACK the state this seat holds for the step in
        flight: False if one is of another step (the table froze); an ACK of another
        state is dropped as the disagreement it is."""
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
                return False
            state = ack.state
            if state != tentative.hash:
                # the same step, another state: its signed word against this seat's own
                # validation. It refused the step like a NACK would (the step goes to
                # all: a two-faced proposer is proven by it), and the others may end the
                # game without it
                del pending.acks[seat]
                self._disagreement(
                    seat,
                    f"it ACKed another state ({state.hex()[:16]}, not {tentative.hash.hex()[:16]})",
                )
        return True

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
