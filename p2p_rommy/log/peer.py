"""Consensus on every move: one peer's side of propose / ACK / commit.

A peer proposes when the committed state says it is its step, validates every
other proposal against its replica, and ACKs the state hash after it to all. It
commits step ``n`` once it holds ACKs from every seat for the same hash, and
only then shows it or acts on it. A different hash freezes the table with a
report; a refused step is answered with a NACK carrying the reason, and two
different signed steps from one seat for one number are kept as evidence.

Buy windows (lp "Køb!"): every eligible seat broadcasts its own signed claim or
pass (a client passes by itself when the window's time runs out on its own clock);
the seat in turn, which declined the card and cannot claim it, proposes the
resolution once it holds every eligible seat's answer. A resolution must carry
all of them, and the winner follows from the set by the house rule (nearest after
the discarder, or the window's lot), so no seat chooses who buys: not by the order
it lists claims in, not by leaving one out. A seat that never answers is a stall
like any other, named and ended by agreement.

Trouble is named: a refused input names the seat it came from, a frozen table
names the culprit when the evidence does (`culprit`), and a seat that keeps the
table waiting past `stall_after` seconds is reported once (`log/stalls.py`).

Sans-IO: `receive(envelope, now)` and `tick(now)` return an `Output` with the
envelopes to broadcast and the records that committed.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from p2p_rommy.engine.due import DueKind
from p2p_rommy.engine.moves import Move
from p2p_rommy.engine.state import Phase
from p2p_rommy.engine.view import Player
from p2p_rommy.errors import IllegalMove, ProtocolError
from p2p_rommy.i18n import N_, Phrase
from p2p_rommy.limits import (
    EVIDENCE_KEPT,
    FUTURE_STEPS,
    REFUSED_KEPT,
    STALL_AFTER_S,
    SYNC_ASKS_PER_S,
    SYNC_BURST,
    TokenBucket,
)
from p2p_rommy.log.buy_window import BuyWindows
from p2p_rommy.log.catch_up import CatchUp, answer
from p2p_rommy.log.chat import ChatLines
from p2p_rommy.log.committed import CommittedRecords, RecordArchive
from p2p_rommy.log.messages import (
    Ack,
    BuyAnswer,
    Chat,
    EndStep,
    Nack,
    Record,
    Step,
    Sync,
    decode,
)
from p2p_rommy.log.replica import SeatedReplica
from p2p_rommy.log.stalls import StallWatch, Waiting
from p2p_rommy.wire.identity import open_envelope, same_body
from p2p_rommy.wire.text import inert

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Dissent:
    """`seat` refused step `n` (signed NACK) although this seat found it valid."""

    seat: int
    n: int
    reason: str

    def __str__(self) -> str:
        return f"seat {self.seat} refused step {self.n}, which this seat found valid: {self.reason}"


class StepClock(Protocol):
    """Whoever times a peer's steps (the bench): told of its own proposals and of every
    commit, with the peer's clock."""

    def proposed(self, n: int, now: float) -> None: ...

    def committed(self, n: int, now: float) -> None: ...


@dataclass
class Output:
    broadcast: list[bytes] = field(default_factory=list)
    committed: list[Record] = field(default_factory=list)
    direct: list[tuple[int, bytes]] = field(default_factory=list)
    """(seat, envelope): messages for one seat only (catch-up)."""

    def extend(self, other: Output) -> None:
        self.broadcast += other.broadcast
        self.committed += other.committed
        self.direct += other.direct


class Peer:
    """Consensus for one seat. `player` decides its moves; None means they come from
    `submit` (the client)."""

    def __init__(
        self,
        replica: SeatedReplica,
        player: Player | None = None,
        stall_after: float = STALL_AFTER_S,
        records: list[Record] | None = None,
        end_after: float | None = None,
        archive: RecordArchive | None = None,
    ) -> None:
        """`records`: the committed records `replica` was restored from (a restart); the
        peer then catches up from every other seat before it proposes anything.
        `end_after`: seconds of waiting for one seat after which this peer proposes to
        end the game without it (None: only when asked, by `end_game`). `archive`: where
        the committed records are durable (the transcript file), so that finished rounds
        need not stay in memory."""
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
        self.frozen: str | None = None
        self.culprit: int | None = None
        """The seat the evidence blames for the freeze, when it does."""
        self.evidence: list[tuple[bytes, bytes]] = []
        self.refused: deque[str] = deque(maxlen=REFUSED_KEPT)
        """The latest refusals (input dropped with a reason), the oldest going first."""
        self.refused_count = 0
        """Refusals since the start (`refused` keeps only the latest)."""
        self.chat = ChatLines()
        """The latest chat lines (not part of the game's log)."""
        self.notes: list[str] = []
        """Things worth a line in the log that are nobody's fault (a claim too late)."""
        self.stall_watch = StallWatch(replica.seat, stall_after)
        """Seats that kept the table waiting too long, each reported once."""
        self.end_after = end_after
        self._progress_at = 0.0
        self._step_envelope: bytes | None = None
        self._refused_step: bytes | None = None
        self._nacks: dict[int, tuple[int, str]] = {}
        self.dissents: list[Dissent] = []
        """Seats that refused a step this seat found valid, with their reasons. The table
        does not stop for good: it waits for their ACK, and the others may end the game
        without them (they forfeit)."""
        self._dissenters: dict[int, set[int]] = {}
        self._acks: dict[int, dict[int, tuple[bytes, bytes]]] = {}
        self._future: dict[int, dict[int, bytes]] = {}
        self.buy_windows = BuyWindows(replica.seat, replica.config.rules.buy_window_ms / 1000)
        """The Køb! windows' answers and clock (the client reads its `seconds_left`)."""
        self.step_clock: StepClock | None = None
        """Told when this seat proposes a step and when each step commits (the bench
        measures commit latency with it)."""
        self.on_commit: Callable[[Record, Step], None] | None = None
        """Told of every commit with the step, typed (the client reads it, no bytes)."""
        self._step: Step | None = None
        self._ask_buckets: dict[int, TokenBucket] = {}

    # --- driving ----------------------------------------------------------

    @property
    def catching_up(self) -> bool:
        """Restarted, and not yet told by every other seat that it has all they have."""
        return self.catch_up.catching_up

    def start(self, now: float = 0.0) -> Output:
        self._progress_at = now
        self.catch_up.started(now)
        if self.catching_up:
            return self._ask(now, range(self.players))
        return self._duties(now)

    def link_up(self, seat: int, now: float = 0.0) -> Output:
        """A connection to `seat` (re)opened: frames may have been lost, so ask."""
        return self._ask(now, [seat])

    def tick(self, now: float) -> Output:
        """Let time pass: a buy window may close, a seat may be reported as stalling,
        and after a quiet spell the peer asks everyone for what it may have missed."""
        out = Output()
        if not self.frozen and not self.replica.over:
            out.direct += self._sync_to(
                self.catch_up.resync(now, self._progress_at, self.replica.n)
            )
        waiting = self.waiting(now)
        self.stall_watch.check(waiting, now)
        if (
            waiting is not None
            and self.end_after is not None
            and now - waiting.since >= self.end_after
        ):
            out.extend(self.end_game(waiting.seat, now))
        out.extend(self._duties(now))
        return out

    def check_deferred(self) -> Output:
        """Verify the shuffle this seat shuffled on before checking it (SPEC §3.3), while
        the others check this seat's own: a proof that fails freezes the table naming
        its shuffler, before this seat shares any card. (If this is not called, the next
        message from another seat or this seat's next share verifies it first.)"""
        if self.frozen or not self.replica.deferred:
            return Output()
        try:
            self.replica.check_deferred()
        except ProtocolError as error:
            self._cheat_found(error)
        return Output()

    def end_game(self, absent: int, now: float = 0.0) -> Output:
        """Propose to end the game without `absent`, which the table has been waiting
        for: every other seat signs it, and the scores so far stand. Only the lowest
        other seat proposes it; elsewhere this does nothing."""
        out = Output()
        waiting = self.waiting(now)
        pending = self.replica.tentative
        if (
            self.frozen
            or (pending is not None and pending.kind == "end")
            or waiting is None
            or waiting.seat != absent
            or absent == self.seat
            or self.replica.end_proposer(absent) != self.seat
        ):
            return out
        name = self.replica.config.seats[absent].name
        refused = [d for d in self.dissents if d.seat == absent]
        if refused:
            reason = (
                f"seat {absent} ({name}) refused step {refused[-1].n}, which the others "
                f"found valid ({refused[-1].reason[:200]}), and did not come back"
            )
        else:
            reason = f"seat {absent} ({name}) did not come back; {waiting.what} never came"
        step = self.replica.propose_end(absent, reason)
        self._acks.pop(step.n, None)  # the ACKs of the step this one replaces
        out.extend(self._proposed(step, now))
        return out

    def waiting(self, now: float) -> Waiting | None:
        """Whom the table waits for now (this seat itself on its own turn), or None."""
        replica = self.replica
        if self.frozen or replica.over:
            return None
        tentative = replica.tentative
        if tentative is not None:
            held = self._acks.get(tentative.n, {})
            absent = replica.pending_absent()
            dissenters = self._dissenters.get(tentative.n, set())
            missing = [s for s in range(self.players) if s not in held and s != absent]
            missing.sort(key=lambda seat: seat not in dissenters)
            if not missing:
                return None
            if missing[0] in dissenters:
                what = Phrase.of(N_("its confirmation of the last move (it refused the move)"))
                return Waiting(missing[0], what, self._progress_at)
            what = Phrase.of(N_("its confirmation of the last move"))
            return Waiting(missing[0], what, self._progress_at)
        if replica.state.phase is Phase.BUY:
            unanswered = self._unanswered()
            if unanswered:
                what = Phrase.of(N_("its answer to Køb!"))
                return Waiting(unanswered[0], what, self._progress_at)
        due = replica.due()
        if due is None:
            return None
        return Waiting(due.seat, due.what, self._progress_at)

    def _unanswered(self) -> list[int]:
        """Eligible seats whose answer in the open buy window this peer has not seen."""
        replica = self.replica
        return self.buy_windows.unanswered(replica.buy_window, replica.state.buy_eligible)

    def submit(self, move: Move, now: float = 0.0) -> Output:
        """A move chosen by the client for this seat; `IllegalMove` if the rules refuse it."""
        if not self.replica.my_turn():
            raise IllegalMove(N_("it is not your turn to play"))
        try:
            step = self.replica.propose_move(move)
        except ProtocolError as error:  # a deferred proof checked before a reveal
            self._cheat_found(error)
            return Output()
        return self._proposed(step, now)

    def say(self, text: str) -> Output:
        """A chat line from this seat to everyone (not part of the game's log)."""
        out = Output()
        line = self.chat.said(self.seat, text)
        if line:
            out.broadcast.append(self._sign(Chat(self.replica.game, self.seat, line)))
        return out

    def answered_buy(self) -> bool:
        """Whether this seat has answered the open buy window."""
        return self.buy_windows.answered(self.replica.buy_window)

    def answer_buy(self, claim: bool, now: float = 0.0) -> Output:
        """This seat's answer in the open buy window (from the client)."""
        out = Output()
        window = self.replica.buy_window
        if (
            window is None
            or self.buy_windows.answered(window)
            or self.seat not in self.replica.state.buy_eligible
        ):
            return out
        if self.replica.state.phase is not Phase.BUY:
            return out
        answer = BuyAnswer(self.replica.game, window, self.seat, claim)
        envelope = self.replica.identity.sign(answer.encode())
        self.buy_windows.answer(window, envelope)
        out.broadcast.append(envelope)
        out.extend(self._duties(now))
        return out

    # --- receiving --------------------------------------------------------

    def receive(self, envelope: bytes, now: float = 0.0, via: int | None = None) -> Output:
        """Handle one envelope from a peer (`via`: the seat whose connection brought it).
        Bad input is refused and logged; nothing changes."""
        out = Output()
        source = _source(via)
        try:
            opened = open_envelope(envelope, self.replica.roster)
            message = decode(opened.body, opened.seat)
        except ProtocolError as error:
            self._refuse(f"from {source}: {error}")
            return out
        if message.game != self.replica.game:
            kind = type(message).__name__.lower()
            self._refuse(f"from {source}: seat {message.seat}'s {kind} for another game")
            return out
        if self.frozen:
            if isinstance(message, Step):
                self._compare_evidence(message, envelope)
            return out
        if isinstance(message, Step):
            out.extend(self._on_step(message, envelope, now, via))
        elif isinstance(message, Ack):
            self._on_ack(message, envelope)
            out.extend(self._try_commit(now))
        elif isinstance(message, Nack):
            out.extend(self._on_nack(message))
        elif isinstance(message, Chat):
            if not self.chat.heard(message.seat, message.text, now):
                self._refuse(f"from {source}: seat {message.seat} chats faster than allowed")
                return out
        elif isinstance(message, Sync):
            if message.ask and not self._bucket(
                self._ask_buckets, message.seat, SYNC_ASKS_PER_S, SYNC_BURST, now
            ):
                self._refuse(f"from {source}: seat {message.seat} asks to catch up too often")
                return out
            out.extend(self._on_sync(message, now))
        else:
            self._on_answer(message, envelope)
            out.extend(self._duties(now))
        return out

    def _on_step(self, step: Step, envelope: bytes, now: float, via: int | None = None) -> Output:
        out = Output()
        replica = self.replica
        source = _source(via)
        if step.n <= replica.n:
            committed = self.records[step.n - 1].step if step.n >= 1 else None
            if committed is not None and same_body(committed, envelope):
                if step.n < replica.n and not self.catch_up.solicited(via, step.n):
                    self._refuse(
                        f"from {source}: step {step.n} again, already committed (a replay)"
                    )
            elif committed is not None and decode_step(committed).seat == step.seat:
                self._equivocation(committed, envelope)
            else:
                self._refuse(f"from {source}: seat {step.seat}'s step {step.n} out of turn")
            return out
        if step.n > replica.n + 1:
            if step.n > replica.n + FUTURE_STEPS:
                self._refuse(f"from {source}: step {step.n} is too far ahead")
            else:
                self._future.setdefault(step.n, {}).setdefault(step.seat, envelope)
            return out
        if isinstance(step.body, EndStep):
            return self._on_end(step, step.body, envelope, now, source)
        expected: int | None
        if replica.tentative is not None and self._step_envelope is not None:
            # the step due is already held (the deck seat has moved on with it)
            expected = replica.tentative.proposer
            if step.seat == expected and not same_body(envelope, self._step_envelope):
                self._equivocation(self._step_envelope, envelope)
                return out
        else:
            expected = replica.expected_proposer()
        if step.seat != expected:
            self._refuse(
                f"from {source}: seat {step.seat} proposed step {step.n} out of turn "
                f"(it is seat {expected}'s step)"
            )
            return out
        if replica.tentative is not None:
            return out  # the same step again
        try:
            tentative = replica.validate(step)
        except ProtocolError as error:
            reason = error.reason
            self._refused_step = envelope
            out.broadcast.append(self._sign(Nack(replica.game, step.n, self.seat, reason[:500])))
            culprit = error.sender if isinstance(error.sender, int) else step.seat
            self._freeze(f"refused step {step.n} from seat {step.seat}: {reason}", culprit)
            return out
        self._step_envelope = envelope
        self._step = step
        self._progress_at = now
        ack = self._sign(Ack(replica.game, step.n, self.seat, tentative.hash))
        self._acks.setdefault(step.n, {})[self.seat] = (tentative.hash, ack)
        out.broadcast.append(ack)
        nack = self._nacks.get(step.n)
        if nack is not None:
            out.extend(self._disagreement(step.n, *nack))
            return out
        out.extend(self._try_commit(now))
        return out

    def _on_end(
        self, step: Step, body: EndStep, envelope: bytes, now: float, source: str
    ) -> Output:
        """A proposal to end the game without a seat: signed only by a peer that is
        itself waiting for that seat."""
        out = Output()
        if self._step_envelope is not None and same_body(self._step_envelope, envelope):
            return out
        absent = body.absent
        waiting = self.waiting(now)
        if waiting is None or waiting.seat != absent or absent == self.seat:
            self._refuse(
                f"from {source}: seat {step.seat} proposes ending the game without "
                f"seat {absent}, which this seat is not waiting for"
            )
            return out
        try:
            tentative = self.replica.validate(step)
        except ProtocolError as error:
            self._refuse(f"from {source}: {error}")
            return out
        self._step_envelope = envelope
        self._step = step
        self._acks.pop(step.n, None)  # the ACKs of the step this one replaces
        ack = self._sign(Ack(self.replica.game, step.n, self.seat, tentative.hash))
        self._acks.setdefault(step.n, {})[self.seat] = (tentative.hash, ack)
        out.broadcast.append(ack)
        out.extend(self._try_commit(now))
        return out

    def _on_nack(self, nack: Nack) -> Output:
        """A seat refused the step due now. This seat's own validation of that step
        decides: refused here too, it names the proposer; valid here, the table
        disagrees and stops."""
        if nack.game != self.replica.game or nack.n != self.replica.n + 1:
            return Output()
        self._nacks.setdefault(nack.n, (nack.seat, inert(nack.reason)))
        if self.replica.tentative is None:
            return Output()  # wait for the step itself
        return self._disagreement(nack.n, nack.seat, nack.reason)

    def _disagreement(self, n: int, seat: int, reason: str) -> Output:
        """`seat` refused step `n`, which this seat found valid. Recorded with its reason;
        the table waits for that seat, and the others may end the game without it."""
        out = Output()
        if self._step_envelope is not None:
            out.broadcast.append(self._step_envelope)  # lets the refuser compare the step
        if seat not in self._dissenters.setdefault(n, set()):
            self._dissenters[n].add(seat)
            dissent = Dissent(seat, n, reason)
            self.dissents.append(dissent)
            self._note(f"{dissent}; the others may end the game without it")
        return out

    def _on_ack(self, ack: Ack, envelope: bytes) -> None:
        if ack.n <= self.replica.n:
            return
        if ack.n > self.replica.n + FUTURE_STEPS:
            self._refuse(f"seat {ack.seat}: an ACK of step {ack.n}, too far ahead")
            return
        tentative = self.replica.tentative
        if (
            tentative is not None
            and tentative.kind == "end"
            and ack.n == tentative.n
            and ack.state != tentative.hash
        ):
            return  # an ACK of the step the end replaced
        if ack.seat in self._dissenters.get(ack.n, ()):
            return  # it refused this step: an ACK of it now contradicts its own NACK
        held = self._acks.setdefault(ack.n, {})
        if ack.seat in held:
            if not same_body(held[ack.seat][1], envelope):
                self._equivocation(held[ack.seat][1], envelope, "ACKs")
            return
        held[ack.seat] = (ack.state, envelope)

    def _on_answer(self, answer: BuyAnswer, envelope: bytes) -> None:
        is_open = answer.window == self.replica.buy_window and self.replica.state.phase is Phase.BUY
        if not is_open and answer.window <= self.replica.n:
            self._refuse(f"seat {answer.seat}: a buy answer after its window closed")
            return
        if answer.window > self.replica.n + FUTURE_STEPS:
            self._refuse(f"seat {answer.seat}: an answer for window {answer.window}, too far ahead")
            return
        held = self.buy_windows.held(answer.window, answer.seat)
        if held is not None:
            if not same_body(held, envelope):
                self._refuse(f"seat {answer.seat}: a second, different answer in one buy window")
            return
        if is_open:
            try:
                self.replica.open_buy_answer(envelope)
            except ProtocolError as error:
                self._refuse(str(error))
                return
        self.buy_windows.add(answer.window, answer.seat, envelope)

    @staticmethod
    def _bucket(
        buckets: dict[int, TokenBucket], seat: int, rate: float, burst: int, now: float
    ) -> bool:
        """Whether `seat` may send one more of a rate-limited kind now (limits.py)."""
        return buckets.setdefault(seat, TokenBucket(rate, burst)).take(now)

    # --- catching up ----------------------------------------------------------

    def _ask(self, now: float, seats: Iterable[int]) -> Output:
        out = Output()
        out.direct += self._sync_to(self.catch_up.ask(seats, self.replica.n, now))
        return out

    def _sync_to(self, seats: list[int]) -> list[tuple[int, bytes]]:
        """This seat's ask (`Sync` with its committed step), addressed to each of `seats`."""
        if not seats:
            return []
        sync = self._sign(Sync(self.replica.game, self.seat, self.replica.n, True))
        return [(seat, sync) for seat in seats]

    def _on_sync(self, sync: Sync, now: float) -> Output:
        """A seat says how far it is. Asked, this seat sends what the other lacks: the
        committed records after its `n` (the original step and ACK envelopes, which it
        checks like any step), the step in flight with the ACKs held for it, and the
        buy answers of the open window; then its own `Sync`."""
        out = Output()
        seat, replica = sync.seat, self.replica
        if sync.ask:
            in_flight = None
            if self._step_envelope is not None and replica.tentative is not None:
                held = self._acks.get(replica.tentative.n, {})
                in_flight = (self._step_envelope, [ack for _, ack in held.values()])
            window = replica.buy_window if replica.state.phase is Phase.BUY else None
            lacking = answer(
                sync.n, replica.n, self.records, in_flight, self.buy_windows.answers(window)
            )
            out.direct += [(seat, envelope) for envelope in lacking]
            reply = Sync(replica.game, self.seat, replica.n, False)
            out.direct.append((seat, self._sign(reply)))
            if sync.n > replica.n and not self.catch_up.asking(seat):
                out.extend(self._ask(now, [seat]))  # this seat is the one behind
            return out
        caught_up = self.catch_up.answered(seat, behind=sync.n > replica.n)
        if sync.n > replica.n:
            out.extend(self._ask(now, [seat]))
        elif caught_up:
            log.info("caught up at step %d", self.replica.n)
            if self.replica.restoring:
                self.replica.wake()
            out.extend(self._duties(now))
        return out

    # --- committing ---------------------------------------------------------

    def _try_commit(self, now: float) -> Output:
        out = Output()
        while not self.frozen:
            tentative = self.replica.tentative
            if tentative is None or self._step_envelope is None:
                break
            held = self._acks.get(tentative.n, {})
            for seat, (state, _) in held.items():
                if state != tentative.hash:
                    self._freeze(
                        f"state hash mismatch at step {tentative.n}: seat {seat} has "
                        f"{state.hex()[:16]}, this seat has {tentative.hash.hex()[:16]}"
                    )
                    out.broadcast.append(self._step_envelope)  # evidence, if it was two-faced
                    return out
            absent = self.replica.pending_absent()
            if any(s not in held for s in range(self.players) if s != absent):
                break
            acks = tuple(held[s][1] if s in held else b"" for s in range(self.players))
            record = Record(self._step_envelope, acks)
            opened_before = self.replica.buy_window
            try:
                self.replica.commit()
            except ProtocolError as error:  # the round audit, or a deferred proof, failed
                self._cheat_found(error)
                return out
            window = self.replica.buy_window
            if window is not None and window != opened_before:
                self.buy_windows.opened(window, now)
            self.records.append(record)
            if self.replica.state.round_index != self._round_index:
                self._round_index = self.replica.state.round_index
                self.records.release()  # a finished round's records: on disk only
            self._progress_at = now
            out.committed.append(record)
            if self.step_clock is not None:
                self.step_clock.committed(tentative.n, now)
            if self.on_commit is not None and self._step is not None:
                self.on_commit(record, self._step)
            self._step_envelope = None
            del self._acks[tentative.n]
            self._nacks.pop(tentative.n, None)
            self._dissenters.pop(tentative.n, None)
            self._forget_closed_windows()
            early = self._future.pop(self.replica.n + 1, {})
            expected = self.replica.expected_proposer()
            following = early.get(expected) if expected is not None else None
            for seat in early:
                if seat != expected:
                    self._refuse(f"seat {seat} proposed step {self.replica.n + 1} out of turn")
            if following is not None:
                out.extend(self._on_step(decode_step(following), following, now))
                continue
            out.extend(self._duties(now))
            break
        return out

    def _forget_closed_windows(self) -> None:
        """Answers of windows that have closed are no longer needed (bounded memory)."""
        replica = self.replica
        still = replica.buy_window if replica.state.phase is Phase.BUY else None
        self.buy_windows.forget_closed(replica.n, still)

    # --- proposing ----------------------------------------------------------

    def _duties(self, now: float) -> Output:
        out = Output()
        replica = self.replica
        if self.frozen or self.catching_up:
            return out
        out.extend(self._buy_answer_due(now))
        due = replica.my_due()
        if due is None:
            return out
        try:
            if due.kind.deck:
                step = replica.propose_deck()
            elif due.kind is DueKind.REVEAL:
                step = replica.propose_reveal()
            elif due.kind is DueKind.BUY:
                if self._unanswered():
                    return out
                step = replica.propose_buy(self.buy_windows.answers(replica.buy_window))
            else:
                if self.player is None:
                    return out
                step = replica.propose_move(self.player.choose(replica.view()))
        except ProtocolError as error:
            # this seat's own checking found a cheat while it made its step: before its
            # first share, it verified a shuffle it had shuffled on (SPEC §3.3)
            self._cheat_found(error)
            return out
        out.extend(self._proposed(step, now))
        return out

    def _buy_answer_due(self, now: float) -> Output:
        """A bot answers at once; a client that has not answered when the window's time
        runs out (on this seat's own clock) passes."""
        replica = self.replica
        if (
            replica.state.phase is not Phase.BUY
            or self.seat not in replica.state.buy_eligible
            or replica.buy_window is None
            or self.buy_windows.answered(replica.buy_window)
        ):
            return Output()
        if self.player is not None:
            decision = self.player.wants_buy(replica.view())
            return Output() if decision is None else self.answer_buy(decision, now)
        if self.buy_windows.time_is_up(replica.buy_window, now):
            return self.answer_buy(False, now)
        return Output()

    def _proposed(self, step: Step, now: float) -> Output:
        out = Output()
        envelope = self._sign(step)
        tentative = self.replica.tentative
        assert tentative is not None
        self._step_envelope = envelope
        self._step = step
        self._progress_at = now
        if self.step_clock is not None:
            self.step_clock.proposed(step.n, now)
        ack = self._sign(Ack(self.replica.game, step.n, self.seat, tentative.hash))
        self._acks.setdefault(step.n, {})[self.seat] = (tentative.hash, ack)
        out.broadcast += [envelope, ack]
        out.extend(self._try_commit(now))
        return out

    # --- trouble ------------------------------------------------------------

    def _sign(self, message: Step | Ack | Nack | BuyAnswer | Sync | Chat) -> bytes:
        return self.replica.identity.sign(message.encode())

    def _refuse(self, reason: str) -> None:
        self.refused.append(reason)
        self.refused_count += 1
        if self.refused_count <= REFUSED_KEPT or self.refused_count % 1000 == 0:
            # a flood of bad input must not become a flood of log lines
            log.warning("refused (%d so far): %s", self.refused_count, reason)

    def _note(self, note: str) -> None:
        log.info("note: %s", note)
        self.notes.append(note)

    def _cheat_found(self, error: ProtocolError) -> None:
        """This seat's own checking (not a step it was validating) found a cheat: freeze,
        naming the seat whose signed data it is."""
        self._freeze(str(error), error.sender if isinstance(error.sender, int) else None)

    def _freeze(self, report: str, culprit: int | None = None) -> None:
        if not self.frozen:
            log.error("table frozen: %s", report)
            self.frozen = report
            self.culprit = culprit

    def _equivocation(self, first: bytes, second: bytes, what: str = "steps") -> None:
        """Two different messages signed by one seat for one step number: proof."""
        if len(self.evidence) < EVIDENCE_KEPT:  # one proof names the seat; a few suffice
            self.evidence.append((first, second))
        seat = decode_step_or_ack_seat(first)
        report = f"seat {seat} signed two different {what} for step {decode_step_number(first)}"
        report += " (kept as proof)"
        if self.frozen and self.culprit is None:  # the proof outranks a mismatch report
            log.error("table frozen: %s", report)
            self.frozen, self.culprit = f"{report}; {self.frozen}", seat
        self._freeze(report, seat)

    def _compare_evidence(self, step: Step, envelope: bytes) -> None:
        """While frozen, a step sent as evidence may prove its proposer two-faced."""
        held = [self._step_envelope, self._refused_step]
        if 1 <= step.n <= len(self.records):
            held.append(self.records[step.n - 1].step)
        for mine in held:
            if mine is None or same_body(mine, envelope):
                continue
            other = decode_step(mine)
            if other.n == step.n and other.seat == step.seat:
                self._equivocation(mine, envelope)
                return


def _source(via: int | None) -> str:
    return "a peer" if via is None else f"seat {via}"


def decode_step(envelope: bytes) -> Step:
    from p2p_rommy.wire.codec import unpack

    _, _, body, _ = unpack(envelope)
    message = decode(body)
    assert isinstance(message, Step)
    return message


def decode_step_or_ack_seat(envelope: bytes) -> int:
    from p2p_rommy.wire.codec import unpack

    _, _, body, _ = unpack(envelope)
    message = decode(body)
    return message.seat


def decode_step_number(envelope: bytes) -> int:
    from p2p_rommy.wire.codec import unpack

    _, _, body, _ = unpack(envelope)
    message = decode(body)
    assert isinstance(message, Step | Ack), "equivocation is proven by steps or ACKs"
    return message.n
