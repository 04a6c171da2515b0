"""Consensus on every move: one peer's side of propose / ACK / commit.

A peer proposes when the committed state says it is its step, validates every
other proposal against its replica, and ACKs the state hash after it to all. It
commits step ``n`` once it holds ACKs from every seat for the same hash, and
only then shows it or acts on it. A different hash freezes the table with a
report; a refused step is answered with a NACK carrying the reason, and two
different signed steps from one seat for one number are kept as evidence
(`log/trouble.py`). The step in flight is one value, `Pending` (`log/pending.py`).

What this seat owes and does of its own accord (its steps, its moves, its Køb!
answers) is `log/duties.py`; the votes on the step in flight, `log/voting.py`; what is
left here is receiving, ending a game without a seat, and catching up.
Buy windows (lp "Køb!") are answered and resolved by `log/buying.py`; catch-up after
a lost frame or a restart by `log/syncing.py`; a seat that keeps the table waiting
past `stall_after` seconds is reported once (`log/stalls.py`).

An event machine, as `lobby/host.py`: `start`, `receive(envelope, now, via)`,
`tick(now)`, `submit(move, now)` and the other calls each return the list of events
(`log/events.py`) they gave rise to — envelopes to send, records that committed,
refusals, notes, a freeze. Time is an input; the peer reads no clock and starts no
thread, so a test or a simulator drives many peers on one logical clock.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from p2p_rommy.engine.view import Player
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_, Phrase, _
from p2p_rommy.limits import STALL_AFTER_S
from p2p_rommy.log.buy_window import BuyWindows
from p2p_rommy.log.buying import Buying
from p2p_rommy.log.catch_up import CatchUp
from p2p_rommy.log.chat import ChatLines
from p2p_rommy.log.committed import CommittedRecords, RecordArchive
from p2p_rommy.log.duties import Duties
from p2p_rommy.log.events import Chat as Said
from p2p_rommy.log.events import Event, Stalled
from p2p_rommy.log.messages import (
    Ack,
    Chat,
    EndStep,
    Nack,
    Record,
    Step,
    Sync,
    decode,
    step_digest,
)
from p2p_rommy.log.pending import EarlyVotes, Pending
from p2p_rommy.log.replica import SeatedReplica
from p2p_rommy.log.stalls import Stall, StallWatch, Waiting
from p2p_rommy.log.syncing import Syncing
from p2p_rommy.log.trouble import Trouble, decode_step
from p2p_rommy.log.voting import StepClock, Voting, source_name
from p2p_rommy.log.waiting import waiting_all
from p2p_rommy.wire.identity import envelope_body

log = logging.getLogger(__name__)


class Peer(Duties, Voting):
    """Consensus for one seat: its duties (`log/duties.py`) and the votes on the step in
    flight (`log/voting.py`), and here what it receives, ending a game and catching up.
    `player` decides its moves; None means they come from `submit` (the client)."""

    def __init__(
        self,
        replica: SeatedReplica,
        player: Player | None = None,
        stall_after: float = STALL_AFTER_S,
        records: list[Record] | None = None,
        end_after: float | None = None,
        archive: RecordArchive | None = None,
        acked: tuple[bytes, bytes] | None = None,
    ) -> None:
        """`records`: the committed records `replica` was restored from (a restart); the
        peer then catches up from every other seat before it proposes anything.
        `end_after`: seconds of waiting for one seat after which this peer proposes to
        end the game without it (None: only when asked, by `end_game`). `archive`: where
        the committed records are durable (the transcript file), so that finished rounds
        need not stay in memory. `acked`: on a restart, the last step this seat ACKed and
        its ACK (`Acked`, kept on disk): if it has not committed, it is held again as
        the step in flight, so a different step for that number is its proposer's
        equivocation and this seat never ACKs two."""
        self.replica = replica
        self.player = player
        self.seat = replica.seat
        self.players = replica.config.players
        self.records = CommittedRecords(records or [], archive)
        """Every committed record; with an `archive` (this seat's transcript on disk),
        those of finished rounds are read back from there (`log/committed.py`)."""
        self.records.release()  # a restart's records are on disk already
        self._round_index = replica.state.round_index
        self.catch_up = CatchUp(replica.seat, self.players, restarted=records is not None)
        """Asks for what this seat may have missed (and whether it restarted and is
        still catching up)."""
        self.trouble = Trouble()
        """Refusals, notes, dissent and the freeze (`log/trouble.py`)."""
        self.chat = ChatLines()
        """The latest chat lines (not part of the game's log)."""
        self.stall_watch = StallWatch(replica.seat, stall_after)
        """Seats that kept the table waiting too long, each reported once."""
        self.end_after = end_after
        self.progress_at = 0.0
        self.pending: Pending | None = None
        self.early = EarlyVotes()
        self.refused_step: bytes | None = None
        self.held_end: bytes | None = None
        self.frozen_at: float | None = None
        """When this seat's clock first saw the table frozen (at its next tick)."""
        self.overdue: dict[int, int] = {}
        """Seat -> the step for which this seat waited its stall limit for it before it
        was heard from again (`Voting.may_end_without`)."""
        self.heard: dict[int, float] = {}
        """When each seat last sent something new toward the step in flight (an ACK or a
        NACK for the next step, a Køb! answer; not the same one relayed again): the
        wait for it, and an end without it, count from then."""
        self.future: dict[int, dict[int, tuple[Step, bytes]]] = {}
        self.buy_windows = BuyWindows(replica.seat, replica.config.rules.buy_window_ms / 1000)
        """The Køb! windows' answers and clock (the client reads its `seconds_left`)."""
        self.step_clock: StepClock | None = None
        """Told when this seat proposes a step and when each step commits (the bench
        measures commit latency with it)."""
        self.buying = Buying(replica, player, self.buy_windows, self.trouble)
        self.syncing = Syncing(replica, self.catch_up, self.records)
        self._acked = acked
        self._out: list[Event] = []

    # --- what it knows ------------------------------------------------------------

    @property
    def culprit(self) -> int | None:
        """The seat the evidence blames for the freeze, when it does."""
        return self.trouble.culprit

    @property
    def alone(self) -> bool:
        """Restarted, and nobody answered: the others have finished the match (its last
        steps are in their transcripts) or left. Nothing can go on from here."""
        return self.catch_up.alone and not self.replica.over

    @property
    def catching_up(self) -> bool:
        """Restarted, and not yet told by every other seat that it has all they have."""
        return self.catch_up.catching_up

    def waiting(self, now: float) -> Waiting | None:
        """Whom the table waits for now (this seat itself on its own turn), or None;
        `since` is when the table began to wait for what that seat owes now, or when
        that seat last sent something new toward it, if later (SPEC §4.4)."""
        waits = self.waits(now)
        return waits[0] if waits else None

    def waits(self, now: float) -> list[Waiting]:
        """Every seat the table waits for now (`waiting` names the first), each since the
        table began to wait for it or since it last sent something new, if later."""
        if self.frozen:
            return []
        waits = waiting_all(self.replica, self.pending, self.buy_windows, self.progress_at)
        return [
            replace(w, since=self.heard[w.seat]) if self.heard.get(w.seat, w.since) > w.since else w
            for w in waits
        ]

    def waited(self, seat: int, now: float) -> float | None:
        """How long this seat has waited for `seat`, by its own clock (`waits`), or
        None if the table does not wait for `seat`."""
        for waiting in self.waits(now):
            if waiting.seat == seat:
                return now - waiting.since
        return None

    def end_set(self, now: float) -> tuple[int, ...]:
        """The seats this seat may end the game without now (SPEC §4.4): the seat its own
        checking caught cheating, else every seat it has waited its stall limit for, with
        those a pending end already leaves out; () when there is no new end to make."""
        culprit = self.culprit
        if self.frozen:
            named = culprit is not None and self.named(culprit)
            return (culprit,) if named and culprit is not None else ()
        covered = self.replica.pending_absent()
        waited = {
            w.seat
            for w in self.waits(now)
            if w.seat != self.seat and now - w.since >= self.end_wait
        }
        absent = tuple(sorted(waited | set(covered)))
        if not waited or absent == covered or len(absent) > self.replica.most_absent:
            return ()
        return absent

    @property
    def end_wait(self) -> float:
        """How long this seat waits for another before it proposes or signs an end
        without it: its stall limit."""
        return self.stall_watch.stall_after

    # --- driving: every call returns its events ------------------------------------

    def start(self, now: float = 0.0) -> list[Event]:
        return self._call(lambda: self._start(now))

    def link_up(self, seat: int, now: float = 0.0) -> list[Event]:
        """A connection to `seat` (re)opened: frames may have been lost, so ask."""
        return self._call(lambda: self.emit(self.syncing.ask(now, [seat])))

    def tick(self, now: float) -> list[Event]:
        """Let time pass: a buy window may close, a seat may be reported as stalling,
        and after a quiet spell the peer asks everyone for what it may have missed."""
        return self._call(lambda: self._tick(now))

    def audit(self) -> list[Event]:
        """Audit the finished round left for later (`Replica.audit_pending`): a finding
        freezes the table naming its seat."""
        return self._call(self._audit_pending)

    def end_game(self, absent: int | tuple[int, ...], now: float = 0.0) -> list[Event]:
        """Propose to end the game without the seat or seats `absent`, which the table
        has been waiting for: every other seat signs it, and the scores so far stand.
        Only the lowest other seat proposes it, and only once it has waited its stall
        limit for each of them itself (`waited`, SPEC §4.4; a pending end's seats stay
        left out); otherwise this does nothing."""
        if isinstance(absent, int):
            absent = (absent,)
        return self._call(lambda: self._end_game(absent, now))

    def say(self, text: str) -> list[Event]:
        """A chat line from this seat to everyone (not part of the game's log)."""
        return self._call(lambda: self._say(text))

    def receive(self, envelope: bytes, now: float = 0.0, via: int | None = None) -> list[Event]:
        """Handle one envelope from a peer (`via`: the seat whose connection brought it).
        Bad input is refused and logged; nothing changes."""
        return self._call(lambda: self._receive(envelope, now, via))

    # --- the calls -------------------------------------------------------------------

    def _start(self, now: float) -> None:
        self.progress_at = now
        self._readopt()
        self.catch_up.started(now)
        if self.catching_up:
            self.emit(self.syncing.ask(now, range(self.players)))
        else:
            self.duties(now)

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

    def ending_frozen(self, now: float) -> bool:
        """A bot's peer (`end_after`) frozen naming a seat it may end the game without,
        less than `end_after` since it froze: its session keeps the table open for that
        end, which this peer proposes itself (`tick`) or signs. (A person's client stays
        open until the person leaves, and `e` offers the end.)"""
        culprit = self.culprit
        if culprit is None or not self.named(culprit) or self.end_after is None:
            return False
        return self.frozen_at is None or now - self.frozen_at < self.end_after

    def _tick(self, now: float) -> None:
        if self.frozen and self.frozen_at is None:
            self.frozen_at = now
        if self.frozen and self.end_after is not None and self.culprit is not None:
            self._end_frozen(self.culprit, now)  # its own checking named the seat: at once
        if not self.frozen and not self.replica.over:
            if self.catching_up:
                self._catch_up_overdue(now)
            resync = self.catch_up.resync(now, self.progress_at, self.replica.n)
            self.emit(self.syncing.send_asks(resync))
        waits = self.waits(now)
        for waiting in waits:  # each seat the table waits for (two may be gone at once)
            stall = self.stall_watch.check(waiting, now)
            if stall is not None:
                self._out.append(Stalled(stall))
        if self.end_after is not None:
            late = tuple(
                w.seat for w in waits if w.seat != self.seat and now - w.since >= self.end_after
            )
            if late:
                self._end_game(late, now)
        self._held_end(now)
        self.duties(now)

    def _catch_up_overdue(self, now: float) -> None:
        """Restarted: ask again a seat whose answer is overdue; a seat that never answers
        is reported as the one stalling, and this seat goes on without it."""
        events, given_up, caught_up = self.syncing.overdue(now)
        self.emit(events)
        for seat in given_up:
            what = Phrase.of(N_("its answer to a restarted seat's catch-up ask"))
            stall = Stall(seat, what, now - self.progress_at)
            self.stall_watch.stalls.append(stall)
            self._out.append(Stalled(stall))
        if self.alone:
            self.emit(self.trouble.note(_("no other seat answered this seat's catch-up asks")))
        elif caught_up:
            self.progress_at = now  # the table waits on this seat from now, not the restart
            self.duties(now)

    def named(self, seat: int) -> bool:
        """This seat's own checking froze the table naming `seat` from its signed data
        (an invalid step, two steps for one number, a bad proof): it may then propose or
        sign an end without `seat` at once, as it may for a seat it waited for too long
        (SPEC §4.4 "Ending without a seat"). Not after a cheat found by a round's audit,
        at a commit that could not complete (no end builds on it)."""
        return (
            self.frozen is not None
            and self.culprit == seat
            and seat != self.seat
            and self.replica.ended is None
            and not self.commit_failed
        )

    def _audit_pending(self) -> None:
        if self.frozen:
            return
        try:
            self.replica.audit_pending()
        except ProtocolError as error:
            self.cheat_found(error)

    def _end_game(self, seats: tuple[int, ...], now: float) -> None:
        if self.frozen:
            if len(seats) == 1:
                self._end_frozen(seats[0], now)
            return
        covered = self.replica.pending_absent()
        absent = tuple(sorted(set(seats) | set(covered)))
        if (
            absent == covered  # nothing new to leave out
            or self.seat in absent
            or len(absent) > self.replica.most_absent  # its signers: a majority
            or not self.may_end_without(absent, now)  # the others would not sign it yet
            or self.replica.end_proposer(absent) != self.seat
        ):
            return
        waits = {w.seat: w for w in self.waits(now)}
        reasons = []
        for seat in absent:
            name = self.replica.config.seats[seat].name
            refused = [d for d in self.trouble.dissents if d.seat == seat]
            if seat in covered:  # signed English; translated where shown (`i18n.say_reason`)
                reasons.append(
                    N_("seat {seat} ({name}) did not come back").format(seat=seat + 1, name=name)
                )
            elif refused:
                reasons.append(
                    N_(
                        "seat {seat} ({name}) refused step {n}, which the others found valid "
                        "({why}), and did not come back"
                    ).format(
                        seat=seat + 1, name=name, n=refused[-1].n, why=refused[-1].reason[:200]
                    )
                )
            else:
                reasons.append(
                    N_("seat {seat} ({name}) did not come back; {what} never came").format(
                        seat=seat + 1, name=name, what=waits[seat].what
                    )
                )
        replaced = self.pending
        step = self.replica.propose_end(absent, "; ".join(reasons))
        self.proposed(step, now, replaced)

    def _end_frozen(self, absent: int, now: float) -> None:
        """End a table frozen by `absent`'s cheat without it (it forfeits)."""
        pending = self.replica.tentative
        if (
            not self.named(absent)
            or (pending is not None and pending.kind == "end")
            or self.replica.end_proposer((absent,)) != self.seat
        ):
            return
        name = self.replica.config.seats[absent].name
        assert self.frozen is not None
        reason = f"seat {absent + 1} ({name}) was caught cheating: {self.frozen[:300]}"
        replaced = self.pending
        self.proposed(self.replica.propose_end((absent,), reason), now, replaced)

    def _on_sync(self, sync: Sync, now: float, source: str) -> None:
        if sync.ask and not self.syncing.may_ask(sync.seat, now):
            self.refuse(f"from {source}: seat {sync.seat} asks to catch up too often")
            return
        pending = self.pending
        in_flight = None
        if pending is not None:
            in_flight = (pending.envelope, [ack for _, ack in pending.acks.values()])
        events, caught_up = self.syncing.on_sync(sync, now, in_flight, self.buying.open_answers())
        self.emit(events)
        if caught_up:
            self.duties(now)

    def _answer_frozen(self, sync: Sync) -> None:
        pending = self.pending
        in_flight = None
        if pending is not None:
            in_flight = (pending.envelope, [ack for _, ack in pending.acks.values()])
        proof = [envelope for pair in self.trouble.evidence for envelope in pair]
        if self.refused_step is not None:
            proof.append(self.refused_step)
        self.emit(self.syncing.answer_frozen(sync, in_flight, proof))

    def _last_committed(self, envelope: bytes) -> bool:
        """Whether `envelope` is the last committed step or one of its ACKs, or an ACK
        the pending step holds already: a copy (the match's last word is sent again)."""
        pending = self.pending
        held = pending is not None and any(envelope == e for _, e in pending.acks.values())
        return held or self.records.last_word(envelope)

    # --- receiving --------------------------------------------------------------------

    def _receive(self, envelope: bytes, now: float, via: int | None) -> None:
        source = source_name(via)
        if self._last_committed(envelope):
            return  # the match's last word again (SPEC §4.4): known, opened when it came
        try:
            _, message = self.replica.open_message(envelope)
        except ProtocolError as error:
            self.refuse(f"from {source}: {error}")
            return
        if message.game != self.replica.game:
            kind = type(message).__name__.lower()
            self.refuse(f"from {source}: seat {message.seat}'s {kind} for another game")
            return
        if self.frozen:
            if isinstance(message, Step) and isinstance(message.body, EndStep):
                if self.named_alone(message.body.absent):
                    self._on_end(message, message.body, envelope, now, source)
            elif isinstance(message, Step):
                self._compare_evidence(message, envelope)
            elif isinstance(message, Ack) and self._ends_culprit(message):
                self._on_ack(message, envelope, now)
                self.try_commit(now)
            elif isinstance(message, Chat):  # "I agree to end the game without ..."
                self._on_chat(message, source, now)
            elif isinstance(message, Sync) and self.syncing.may_ask(message.seat, now):
                self._answer_frozen(message)  # a restarted seat learns the proof
            return
        if isinstance(message, Step):
            self.on_step(message, envelope, now, via)
        elif isinstance(message, Ack):
            self._on_ack(message, envelope, now)
            self.try_commit(now)
        elif isinstance(message, Nack):
            self._on_nack(message, now)
        elif isinstance(message, Chat):
            self._on_chat(message, source, now)
        elif isinstance(message, Sync):
            self._on_sync(message, now, source)
        else:
            if message.seat in self.buy_windows.unanswered(message.window, (message.seat,)):
                self.came_back(message.seat, now)
                self.heard[message.seat] = now  # a new answer, not one relayed again
            self.emit(self.buying.on_answer(message, envelope))
            self.duties(now)

    def _ends_culprit(self, ack: Ack) -> bool:
        """A frozen peer's business: an ACK of an end without the seat it named."""
        if ack.n != self.replica.n + 1 or self.culprit is None:
            return False
        return self.replica.end_hashes().get(ack.state) == (self.culprit,)

    # --- chat (not part of the game's log) --------------------------------------------

    def _say(self, text: str) -> None:
        line = self.chat.said(self.seat, text)
        if line:
            self._out.append(Said(self.seat, line))
            self.send(self.sign(Chat(self.replica.game, self.seat, line)))

    def _on_chat(self, message: Chat, source: str, now: float) -> None:
        if not self.chat.heard(message.seat, message.text, now):
            self.refuse(f"from {source}: seat {message.seat} chats faster than allowed")
            return
        self._out.append(Said(message.seat, self.chat.lines[-1][1]))
