"""Catching up, as the peer does it: after a restart, and for another seat that asks.

A seat that restarted holds again the step it ACKed before it stopped (`_readopt`),
asks every other seat for what it missed, asks again a seat that is slow to answer and
reports one that never does (SPEC §4.4); any seat answers another's ask, also a frozen
one, which sends the proof of its freeze with it. What was asked and answered is kept
by `log/catch_up.py`; the messages themselves are made and read by `log/syncing.py`.
"""

from __future__ import annotations

import logging

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_, Phrase, _
from p2p_rommy.log.events import Event, Stalled
from p2p_rommy.log.messages import Ack, Sync, decode, step_digest
from p2p_rommy.log.pending import Pending
from p2p_rommy.log.stalls import Stall, StallWatch
from p2p_rommy.log.syncing import Syncing
from p2p_rommy.log.trouble import decode_step
from p2p_rommy.log.voting import Voting
from p2p_rommy.wire.identity import envelope_body

log = logging.getLogger(__name__)


class CatchingUp(Voting):
    """This seat's catch-up asks and its answers to others' (see the module docstring)."""

    syncing: Syncing
    stall_watch: StallWatch
    silent_at: int | None
    _acked: tuple[bytes, bytes] | None

    @property
    def alone(self) -> bool:
        """Restarted, and nobody answered: the others have finished the match (its last
        steps are in their transcripts) or left. Nothing can go on from here."""
        return self.catch_up.alone and not self.replica.over

    @property
    def catching_up(self) -> bool:
        """Restarted, and not yet told by every other seat that it has all they have."""
        return self.catch_up.catching_up

    def link_up(self, seat: int, now: float = 0.0) -> list[Event]:
        """A connection to `seat` (re)opened: frames may have been lost, so ask."""
        return self._call(lambda: self.emit(self.syncing.ask(now, [seat])))

    def _readopt(self) -> None:
        """After a restart: the step this seat ACKed before it stopped, if it has not
        committed, held in flight again with that very ACK (sent again: the same bytes)."""
        acked, self._acked = self._acked, None
        if acked is None or self.pending is not None:
            return
        step_envelope, ack_envelope = acked
        try:
            step = decode_step(step_envelope)
            ack = decode(envelope_body(ack_envelope))
            if step.n != self.replica.n + 1 or not isinstance(ack, Ack) or ack.n != step.n:
                return  # it committed (the transcript has it), or it is not this step's
            tentative = self.replica.validate(step)
        except (ProtocolError, ValueError) as error:
            log.warning("the step this seat ACKed before it stopped is not held: %s", error)
            return
        if tentative.hash != ack.state or step_digest(step_envelope) != ack.step:
            log.warning("the ACK kept on disk is not of the step kept with it")
            return
        self.pending = Pending(step, step_envelope, tentative, {self.seat: (ack, ack_envelope)})
        self.send(ack_envelope)

    def _lonely(self, now: float) -> None:
        """Restarted, and nobody has answered since its first ask, `ALONE_AFTER_S` ago:
        say so (`alone`: the session stops)."""
        if self.catch_up.lonely(now) and not self.replica.over:
            self.emit(self.trouble.note(_("no other seat answered this seat's catch-up asks")))

    def _catch_up_overdue(self, now: float) -> None:
        """Restarted: ask again a seat whose answer is overdue; a seat that never answers
        is reported as the one stalling, and this seat goes on without it."""
        events, given_up, caught_up = self.syncing.overdue(now)
        self.emit(events)
        if given_up:
            self.silent_at = self.replica.n
        for seat in given_up:
            what = Phrase.of(N_("its answer to a restarted seat's catch-up ask"))
            stall = Stall(seat, what, now - self.progress_at)
            self.stall_watch.stalls.append(stall)
            self._out.append(Stalled(stall))
        if caught_up:
            self.progress_at = now  # the table waits on this seat from now, not the restart
            self.duties(now)

    def _in_flight(self) -> tuple[bytes, list[bytes]] | None:
        """The step in flight and the ACKs held for it, sent with an answer."""
        pending = self.pending
        if pending is None:
            return None
        return (pending.envelope, [ack for _, ack in pending.acks.values()])

    def _on_sync(self, sync: Sync, now: float, source: str) -> None:
        if sync.ask and not self.syncing.may_ask(sync.seat, now):
            self.refuse(f"from {source}: seat {sync.seat} asks to catch up too often")
            return
        events, caught_up = self.syncing.on_sync(
            sync, now, self._in_flight(), self.buying.open_answers()
        )
        self.emit(events)
        if caught_up:
            self.duties(now)

    def _answer_frozen(self, sync: Sync) -> None:
        """A frozen seat's answer: what it holds, and the proof of why it froze."""
        proof = [envelope for pair in self.trouble.evidence for envelope in pair]
        if self.refused_step is not None:
            proof.append(self.refused_step)
        self.emit(self.syncing.answer_frozen(sync, self._in_flight(), proof))
