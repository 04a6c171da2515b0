"""Consensus on every move: one peer's side of propose / ACK / commit.

A peer proposes when the committed state says it is its step, validates every
other proposal against its replica, and ACKs the state hash after it to all. It
commits step ``n`` once it holds ACKs from every seat for the same hash, and
only then shows it or acts on it. A different hash freezes the table with a
report; a refused step is answered with a NACK carrying the reason, and two
different signed steps from one seat for one number are kept as evidence
(`log/trouble.py`). The step in flight is one value, `Pending` (`log/pending.py`).

A `Peer` is concerns each in a module of its own on `Voting` (`log/voting.py`: the
step in flight, received or proposed): the other seats' ACKs and NACKs on it,
`log/votes.py`; its commit, `log/committing.py`; what this seat owes and does of its
own accord (its steps, its moves, its Køb! answers), `log/duties.py`; ending a game
without a seat (SPEC §4.4), `log/ending.py`, signing another seat's end,
`log/end_votes.py`, and an end that outranks this seat's last step,
`log/overturn.py`; catching up after a restart and answering another seat's asks,
`log/catching_up.py`. What is left here is the peer's state, whom the table waits
for, the calls that drive it and receiving (with chat, which is no part of the
game's log).
Buy windows (lp "Køb!") are answered and resolved by `log/buying.py`; catch-up
messages are made and read by `log/syncing.py`; a seat that keeps the table waiting
past `stall_after` seconds is reported once (`log/stalls.py`).

An event machine, as `lobby/host.py`: `start`, `receive(envelope, now, via)`,
`tick(now)`, `submit(move, now)` and the other calls each return the list of events
(`log/events.py`) they gave rise to — envelopes to send, records that committed,
refusals, notes, a freeze. Time is an input; the peer reads no clock and starts no
thread, so a test or a simulator drives many peers on one logical clock.
"""

from __future__ import annotations

from p2p_rommy.engine.view import Player
from p2p_rommy.errors import ProtocolError
from p2p_rommy.limits import STALL_AFTER_S
from p2p_rommy.log.buy_window import BuyWindows
from p2p_rommy.log.buying import Buying
from p2p_rommy.log.catch_up import CatchUp
from p2p_rommy.log.catching_up import CatchingUp
from p2p_rommy.log.chat import ChatLines
from p2p_rommy.log.committed import CommittedRecords, RecordArchive
from p2p_rommy.log.committing import Committing
from p2p_rommy.log.duties import Duties
from p2p_rommy.log.end_votes import EndVotes
from p2p_rommy.log.ending import Ending
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
)
from p2p_rommy.log.overturn import Overturn
from p2p_rommy.log.pending import EarlyVotes, Pending
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.log.stalls import StallWatch, Waiting
from p2p_rommy.log.syncing import Syncing
from p2p_rommy.log.trouble import Trouble
from p2p_rommy.log.votes import Votes
from p2p_rommy.log.voting import StepClock, source_name
from p2p_rommy.log.waiting import waiting_all


class Peer(Duties, Ending, CatchingUp, EndVotes, Overturn, Votes, Committing):
    """Consensus for one seat: its duties (`log/duties.py`), ending a game without a seat
    (`log/ending.py`) and catching up (`log/catching_up.py`), all on the votes on the
    step in flight (`log/voting.py`); here what it receives and whom it waits for.
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
        self.ousted: bytes | None = None
        self.past: dict[int, int] = {}
        """Seat -> the highest step it has signed that it committed (a step or an ACK
        of step k says k - 1, a `log/sync` its `n`): an honest seat signs no end for a
        step it has committed (`EndVotes._end_overtaken`). One entry per seat."""
        self.replaced: Pending | None = None
        self.future_ends: dict[int, tuple[Step, bytes]] = {}
        """Bounded like `future`: numbers up to `FUTURE_STEPS` ahead, dropped once
        committed past."""
        self.frozen_at: float | None = None
        """When this seat's clock first saw the table frozen (at its next tick)."""
        self.overdue: dict[int, int] = {}
        """Seat -> the step for which this seat waited its stall limit for it before it
        was heard from again (`EndVotes.may_end_without`)."""
        self.silent_at: int | None = None
        """The committed step at which this seat, restarted, gave up on a seat that never
        answered its catch-up asks: while it is still the last, the wait for that seat
        counts from the first ask (`_silent_since`)."""
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
        if self.silent_at == self.replica.n:
            waits = [self._silent_since(w) for w in waits]
        heard = self.heard
        return [
            Waiting(w.seat, w.what, heard[w.seat]) if heard.get(w.seat, w.since) > w.since else w
            for w in waits
        ]

    def _silent_since(self, waiting: Waiting) -> Waiting:
        """A restarted seat's wait for a seat that never answered its catch-up asks
        counts from its first ask (SPEC §4.4 "Time, measured by each signer"): it heard
        nothing from that seat since, and its clock must not start only once it gave up,
        or it would take that seat's late step after the others, who waited the whole
        time by their clocks, signed an end without it (a split nothing can commit)."""
        since = self.catch_up.silent_since(waiting.seat)
        if since is None or since >= waiting.since:
            return waiting
        return Waiting(waiting.seat, waiting.what, since)

    def waited(self, seat: int, now: float) -> float | None:
        """How long this seat has waited for `seat`, by its own clock (`waits`), or
        None if the table does not wait for `seat`."""
        for waiting in self.waits(now):
            if waiting.seat == seat:
                return now - waiting.since
        return None

    # --- driving: every call returns its events ------------------------------------

    def start(self, now: float = 0.0) -> list[Event]:
        return self._call(lambda: self._start(now))

    def tick(self, now: float) -> list[Event]:
        """Let time pass: a buy window may close, a seat may be reported as stalling,
        and after a quiet spell the peer asks everyone for what it may have missed."""
        return self._call(lambda: self._tick(now))

    def audit(self) -> list[Event]:
        """Audit the finished round left for later (`Replica.audit_pending`): a finding
        freezes the table naming its seat."""
        return self._call(self._audit_pending)

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

    def _tick(self, now: float) -> None:
        self._frozen_tick(now)
        live = not self.frozen and not self.replica.over
        if live and self.catching_up:
            self._catch_up_overdue(now)
        if live and self.catch_up.silent:
            self._lonely(now)
        waits = self.waits(now)
        if live:
            waited = [waiting.seat for waiting in waits]
            resync = self.catch_up.resync(now, self.progress_at, self.replica.n, waited)
            self.emit(self.syncing.send_asks(resync))
        for waiting in waits:  # each seat the table waits for (two may be gone at once)
            stall = self.stall_watch.check(waiting, now)
            if stall is not None:
                self._out.append(Stalled(stall))
        self._late_tick(waits, now)
        self._held_end(now)
        self._ousted(now)
        if live:
            self._end_overtaken(now)
        self.duties(now)

    def _audit_pending(self) -> None:
        if self.frozen:
            return
        try:
            self.replica.audit_pending()
        except ProtocolError as error:
            self.cheat_found(error)

    def _last_committed(self, envelope: bytes) -> bool:
        """Whether `envelope` is the last committed step or one of its ACKs, or the
        pending step or an ACK it holds already: a copy (the match's last word is sent
        again; an answer to a resync ask carries the step in flight), not opened again."""
        pending = self.pending
        if pending is not None:
            if envelope == pending.envelope:
                return True
            for _, held in pending.acks.values():
                if envelope == held:
                    return True
        return self.records.last_word(envelope)

    # --- receiving --------------------------------------------------------------------

    def _receive(self, envelope: bytes, now: float, via: int | None) -> None:
        if via is not None:
            self.catch_up.heard_from(via)  # its connection is alive, whatever this is
        if self._last_committed(envelope):
            return  # the match's last word again (SPEC §4.4): known, opened when it came
        try:
            _, message = self.replica.open_message(envelope)
        except ProtocolError as error:
            self.refuse(f"from {source_name(via)}: {error}")
            return
        if message.game != self.replica.game:
            kind = type(message).__name__.lower()
            self.refuse(f"from {source_name(via)}: seat {message.seat}'s {kind} for another game")
            return
        if via is None:
            self.catch_up.heard_from(message.seat)
        if self.frozen:
            if isinstance(message, Step) and isinstance(message.body, EndStep):
                if self.named_alone(message.body.absent):
                    self._on_end(message, message.body, envelope, now, source_name(via))
            elif isinstance(message, Step):
                self._compare_evidence(message, envelope)
            elif isinstance(message, Ack) and self._ends_culprit(message):
                self._on_ack(message, envelope, now)
                self.try_commit(now)
            elif isinstance(message, Chat):  # "I agree to end the game without ..."
                self._on_chat(message, source_name(via), now)
            elif isinstance(message, Sync) and self.syncing.may_ask(message.seat, now):
                self._answer_frozen(message)  # a restarted seat learns the proof
            return
        if isinstance(message, Step | Ack | Sync):
            committed = message.n if isinstance(message, Sync) else message.n - 1
            if committed > self.past.get(message.seat, -1):
                self.past[message.seat] = committed
        if isinstance(message, Step):
            self.on_step(message, envelope, now, via)
        elif isinstance(message, Ack):
            self._on_ack(message, envelope, now)
            self.try_commit(now)
        elif isinstance(message, Nack):
            self._on_nack(message, now)
        elif isinstance(message, Chat):
            self._on_chat(message, source_name(via), now)
        elif isinstance(message, Sync):
            self._on_sync(message, now, source_name(via))
        else:
            if message.seat in self.buy_windows.unanswered(message.window, (message.seat,)):
                self.came_back(message.seat, now)
                self.heard[message.seat] = now  # a new answer, not one relayed again
            self.emit(self.buying.on_answer(message, envelope))
            self.duties(now)

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
