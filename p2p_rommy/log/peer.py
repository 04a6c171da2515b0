"""Consensus on every move: one peer's side of propose / ACK / commit.

A peer proposes when the committed state says it is its step, validates every
other proposal against its replica, and ACKs the state hash after it to all. It
commits step ``n`` once it holds ACKs from every seat for the same hash, and
only then shows it or acts on it. A different hash freezes the table with a
report; a refused step is answered with a NACK carrying the reason, and two
different signed steps from one seat for one number are kept as evidence.

Buy windows (lp "Køb!"): eligible seats broadcast a signed claim or pass; the
sequencer (the seat in turn, which declined the card and cannot claim it)
closes the window when every eligible seat has answered or its time is up, and
proposes the answers in the order it received them. A peer refuses a
resolution that leaves out a claim it holds.

Sans-IO: `receive(envelope, now)` and `tick(now)` return an `Output` with the
envelopes to broadcast and the records that committed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from p2p_rommy.engine.moves import Move
from p2p_rommy.engine.state import Phase
from p2p_rommy.engine.view import View
from p2p_rommy.errors import IllegalMove, ProtocolError
from p2p_rommy.log.messages import Ack, BuyAnswer, Nack, Record, Step, decode
from p2p_rommy.log.replica import Replica
from p2p_rommy.wire.identity import open_envelope

log = logging.getLogger(__name__)


class Player(Protocol):
    def choose(self, view: View) -> Move: ...

    def wants_buy(self, view: View) -> bool: ...


@dataclass
class Output:
    broadcast: list[bytes] = field(default_factory=list)
    committed: list[Record] = field(default_factory=list)

    def extend(self, other: Output) -> None:
        self.broadcast += other.broadcast
        self.committed += other.committed


class Peer:
    """Consensus for one seat. `player` decides its moves; None means they come from
    `submit` (the client)."""

    def __init__(self, replica: Replica, player: Player | None = None) -> None:
        self.replica = replica
        self.player = player
        self.seat = replica.seat
        self.players = replica.config.players
        self.records: list[Record] = []
        self.frozen: str | None = None
        self.evidence: list[tuple[bytes, bytes]] = []
        self.refused: list[str] = []
        self._step_envelope: bytes | None = None
        self._acks: dict[int, dict[int, tuple[bytes, bytes]]] = {}
        self._future: dict[int, bytes] = {}
        self._answers: dict[int, list[tuple[int, bytes]]] = {}
        self._answered: set[int] = set()
        self._window_opened: float | None = None
        self._proposed_at: dict[int, float] = {}
        self.commit_latencies: list[float] = []
        """Seconds from this seat's proposal to its commit, per step it proposed."""
        self.on_commit: Callable[[Record], None] | None = None

    # --- driving ----------------------------------------------------------

    def start(self, now: float = 0.0) -> Output:
        return self._duties(now)

    def tick(self, now: float) -> Output:
        """Let time pass: a buy window may close."""
        return self._duties(now)

    def submit(self, move: Move, now: float = 0.0) -> Output:
        """A move chosen by the client for this seat; `IllegalMove` if the rules refuse it."""
        if self.replica.duty() != "move":
            raise IllegalMove("it is not your turn to play")
        step = self.replica.propose_move(move)
        return self._proposed(step, now)

    def answered_buy(self) -> bool:
        """Whether this seat has answered the open buy window."""
        return self.replica.buy_window in self._answered

    def answer_buy(self, claim: bool, now: float = 0.0) -> Output:
        """This seat's answer in the open buy window (from the client)."""
        out = Output()
        window = self.replica.buy_window
        if (
            window is None
            or window in self._answered
            or self.seat not in self.replica.state.buy_eligible
        ):
            return out
        if self.replica.state.phase is not Phase.BUY:
            return out
        self._answered.add(window)
        answer = BuyAnswer(self.replica.game, window, self.seat, claim)
        envelope = self.replica.identity.sign(answer.encode())
        self._answers.setdefault(window, []).append((self.seat, envelope))
        out.broadcast.append(envelope)
        out.extend(self._duties(now))
        return out

    # --- receiving --------------------------------------------------------

    def receive(self, envelope: bytes, now: float = 0.0) -> Output:
        """Handle one envelope from a peer. Bad input is refused and logged; nothing changes."""
        out = Output()
        if self.frozen:
            return out
        try:
            opened = open_envelope(envelope, self.replica.roster)
            message = decode(opened.body, opened.seat)
        except ProtocolError as error:
            self._refuse(str(error))
            return out
        if isinstance(message, Step):
            out.extend(self._on_step(message, envelope, now))
        elif isinstance(message, Ack):
            self._on_ack(message, envelope)
            out.extend(self._try_commit(now))
        elif isinstance(message, Nack):
            if message.n == self.replica.n + 1:
                self._freeze(f"seat {message.seat} refused step {message.n}: {message.reason}")
        else:
            self._on_answer(message, envelope)
            out.extend(self._duties(now))
        return out

    def _on_step(self, step: Step, envelope: bytes, now: float) -> Output:
        out = Output()
        replica = self.replica
        if step.game != replica.game:
            self._refuse(f"seat {step.seat}: step for another game")
            return out
        if step.n <= replica.n:
            committed = decode_step(self.records[step.n - 1].step) if step.n >= 1 else None
            if (
                committed is not None
                and committed.seat == step.seat
                and envelope != self.records[step.n - 1].step
            ):
                self._equivocation(self.records[step.n - 1].step, envelope)
            return out
        if step.n > replica.n + 1:
            self._future.setdefault(step.n, envelope)
            return out
        if replica.tentative is not None:
            if self._step_envelope is not None and envelope != self._step_envelope:
                first = decode_step(self._step_envelope)
                if first.seat == step.seat:
                    self._equivocation(self._step_envelope, envelope)
            return out
        try:
            tentative = replica.validate(step)
            if step.body.get("kind") == "buy":
                self._check_no_claim_left_out(step)
        except ProtocolError as error:
            reason = error.reason
            out.broadcast.append(self._sign(Nack(replica.game, step.n, self.seat, reason[:500])))
            self._freeze(f"refused step {step.n} from seat {step.seat}: {reason}")
            return out
        self._step_envelope = envelope
        ack = self._sign(Ack(replica.game, step.n, self.seat, tentative.hash))
        self._acks.setdefault(step.n, {})[self.seat] = (tentative.hash, ack)
        out.broadcast.append(ack)
        out.extend(self._try_commit(now))
        return out

    def _check_no_claim_left_out(self, step: Step) -> None:
        included = {self.replica.open_buy_answer(e).seat for e in step.body["answers"]}
        for seat, envelope in self._answers.get(self.replica.buy_window or -1, []):
            answer = self.replica.open_buy_answer(envelope)
            if answer.claim and seat not in included:
                raise ProtocolError(
                    step.seat, f"the buy resolution leaves out seat {seat}'s claim", step.n
                )

    def _on_ack(self, ack: Ack, envelope: bytes) -> None:
        if ack.n <= self.replica.n:
            return
        held = self._acks.setdefault(ack.n, {})
        if ack.seat in held:
            if held[ack.seat][1] != envelope:
                self._equivocation(held[ack.seat][1], envelope)
            return
        held[ack.seat] = (ack.state, envelope)

    def _on_answer(self, answer: BuyAnswer, envelope: bytes) -> None:
        answers = self._answers.setdefault(answer.window, [])
        if any(seat == answer.seat for seat, _ in answers):
            return
        if answer.window == self.replica.buy_window and self.replica.state.phase is Phase.BUY:
            try:
                self.replica.open_buy_answer(envelope)
            except ProtocolError as error:
                self._refuse(str(error))
                return
        elif answer.window <= self.replica.n:
            self._refuse(f"seat {answer.seat}: a buy answer after its window closed")
            return
        answers.append((answer.seat, envelope))

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
                    return out
            if len(held) < self.players:
                break
            record = Record(self._step_envelope, tuple(held[s][1] for s in range(self.players)))
            opened_before = self.replica.buy_window
            try:
                self.replica.commit()
            except ProtocolError as error:  # the round audit found a cheat
                self._freeze(str(error))
                return out
            if self.replica.buy_window != opened_before:
                self._window_opened = now
            self.records.append(record)
            out.committed.append(record)
            if tentative.n in self._proposed_at:
                self.commit_latencies.append(now - self._proposed_at.pop(tentative.n))
            if self.on_commit is not None:
                self.on_commit(record)
            self._step_envelope = None
            del self._acks[tentative.n]
            following = self._future.pop(self.replica.n + 1, None)
            if following is not None:
                out.extend(self._on_step(decode_step(following), following, now))
                continue
            out.extend(self._duties(now))
            break
        return out

    # --- proposing ----------------------------------------------------------

    def _duties(self, now: float) -> Output:
        out = Output()
        replica = self.replica
        if self.frozen:
            return out
        out.extend(self._buy_answer_due(now))
        duty = replica.duty()
        if duty is None:
            return out
        if duty == "deck":
            step = replica.propose_deck()
        elif duty == "reveal":
            step = replica.propose_reveal()
        elif duty == "buy":
            answers = self._answers.get(replica.buy_window or -1, [])
            eligible = set(replica.state.buy_eligible)
            everyone = eligible <= {seat for seat, _ in answers}
            opened = self._window_opened if self._window_opened is not None else now
            if not everyone and now < opened + replica.config.rules.buy_window_ms / 1000:
                return out
            step = replica.propose_buy([envelope for _, envelope in answers])
        else:
            if self.player is None:
                return out
            step = replica.propose_move(self.player.choose(replica.view()))
        out.extend(self._proposed(step, now))
        return out

    def _buy_answer_due(self, now: float) -> Output:
        replica = self.replica
        if (
            self.player is None
            or replica.state.phase is not Phase.BUY
            or self.seat not in replica.state.buy_eligible
            or replica.buy_window in self._answered
        ):
            return Output()
        return self.answer_buy(self.player.wants_buy(replica.view()), now)

    def _proposed(self, step: Step, now: float) -> Output:
        out = Output()
        envelope = self._sign(step)
        tentative = self.replica.tentative
        assert tentative is not None
        self._step_envelope = envelope
        self._proposed_at[step.n] = now
        ack = self._sign(Ack(self.replica.game, step.n, self.seat, tentative.hash))
        self._acks.setdefault(step.n, {})[self.seat] = (tentative.hash, ack)
        out.broadcast += [envelope, ack]
        out.extend(self._try_commit(now))
        return out

    # --- trouble ------------------------------------------------------------

    def _sign(self, message: Step | Ack | Nack | BuyAnswer) -> bytes:
        return self.replica.identity.sign(message.encode())

    def _refuse(self, reason: str) -> None:
        log.warning("refused: %s", reason)
        self.refused.append(reason)

    def _freeze(self, report: str) -> None:
        if not self.frozen:
            log.error("table frozen: %s", report)
            self.frozen = report

    def _equivocation(self, first: bytes, second: bytes) -> None:
        self.evidence.append((first, second))
        seat = decode_step_or_ack_seat(first)
        self._freeze(f"seat {seat} signed two different messages for the same step (kept as proof)")


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
    return message.seat  # type: ignore[union-attr]
