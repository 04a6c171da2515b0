"""``rommy verify``: check a finished (or interrupted) game offline.

The verifier replays the transcript through an *observer* replica: the very code
every peer ran, holding no seat and no secret. Each step must carry its
proposer's good signature, be the step the committed state expected from that
seat, pass the engine's rules and the deck protocol's proofs, and be ACKed by
every seat for exactly the state hash the verifier computes itself. At each
round's end the seeds are opened and the round is audited (protocol/SPEC.md
§3.8). Scores and the final standing are the engine's, recomputed.

A finding stops the replay: everything after it builds on a state nobody should
have committed.

Blame only signatures: a seat is named only for a step that carries its valid
signature and breaks a rule or a proof — whatever fails inside it, another seat's
envelope included, is the proposer's — or for an ACK it signed for another state of
the very step recorded. ACKs of another step than the record holds name the step's
proposer if its own ACK is among them (it signed both), else nobody: the proposer
may have signed two steps, or the record was altered, and no one signature says which.
Damage to the file — a bad signature, a record missing, repeated or out of place,
a damaged record before the last, bytes after the game's end — is reported as
damage, naming nobody. The verdicts and their exit codes:

    FAIR 0 · CHEATING DETECTED 1 · not a transcript 2 · DAMAGED 3 · INCOMPLETE 4
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from p2p_rommy.config import GameConfig
from p2p_rommy.deck import ALL, AuditReport
from p2p_rommy.deck.seat import LateProof
from p2p_rommy.engine.state import GameState
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.log.messages import (
    Ack,
    EndStep,
    Record,
    Step,
    decode,
    decode_record,
    step_digest,
)
from p2p_rommy.log.replica import Observer
from p2p_rommy.log.transcript import MAGIC, FrameReader, check_genesis
from p2p_rommy.wire.identity import open_envelope

EXIT_FAIR = 0
EXIT_CHEATING = 1
EXIT_UNREADABLE = 2
EXIT_DAMAGED = 3
EXIT_INCOMPLETE = 4


class UnreadableTranscript(Exception):
    """Not a transcript at all (exit 2), as opposed to a transcript with a finding."""


class Damage(Exception):
    """The file is damaged here: nobody's signature stands behind what is wrong."""


@dataclass
class RoundSummary:
    round_no: int
    shufflers: list[str]
    dealt: int
    drawn: int
    revealed: int


@dataclass
class VerifyReport:
    config: GameConfig
    steps: int = 0
    rounds: list[RoundSummary] = field(default_factory=list)
    culprit: int | None = None
    step: int | None = None
    what: str | None = None
    pending: list[str] = field(default_factory=list)
    scores: tuple[int, ...] = ()
    finished: bool = False
    ended: str | None = None
    """Why the game ended early, if the players ended it without a seat."""
    absent: tuple[int, ...] = ()
    """The seats the others ended the game without."""
    ended_by: tuple[int, ...] = ()
    """The seats whose ACKs the end step carries: on whose word the game was ended."""
    cards: dict[int, dict[int, int]] = field(default_factory=dict)
    """Round -> slot -> card id, for every round whose seeds were revealed."""
    damage: str | None = None
    """Where and how the file is damaged, if it is (no seat is blamed for it)."""

    @property
    def fair(self) -> bool:
        """No cheat found and no damage (the game may still be unfinished)."""
        return self.what is None and self.damage is None

    @property
    def forfeited(self) -> tuple[int, ...]:
        """The seats the others ended the game without: they forfeit, when the end carries
        the word of more than one seat (on one seat's word the game is abandoned)."""
        if not self.absent or len(self.ended_by) < 2:
            return ()
        return self.absent

    @property
    def abandoned(self) -> bool:
        """Ended on one seat's word alone (a table of two): no standing."""
        return bool(self.absent) and not self.forfeited

    @property
    def complete(self) -> bool:
        return self.finished or self.ended is not None

    @property
    def status(self) -> str:
        if self.damage is not None:
            return "damaged"
        if self.what is not None:
            return "cheating"
        return "fair" if self.complete else "incomplete"

    @property
    def exit_code(self) -> int:
        return {
            "fair": EXIT_FAIR,
            "cheating": EXIT_CHEATING,
            "damaged": EXIT_DAMAGED,
            "incomplete": EXIT_INCOMPLETE,
        }[self.status]

    def verdict(self) -> str:
        """The verdict on one inert line, in words (`verify_words.py`)."""
        from p2p_rommy.verify_words import verdict_line

        return verdict_line(self)

    def text(self) -> str:
        """The report for a player, in words (`verify_words.py`)."""
        from p2p_rommy.verify_words import report_text

        return report_text(self)

    def as_json(self) -> dict[str, Any]:
        return {
            "verdict": self.status,
            "exit_code": self.exit_code,
            "damage": self.damage,
            "verdict_line": self.verdict(),
            "game": self.config.game_id.hex(),
            "steps": self.steps,
            "finished": self.finished,
            "finding": None
            if self.fair
            else {"seat": self.culprit, "step": self.step, "what": self.what},
            "rounds": [vars(r) for r in self.rounds],
            "scores": list(self.scores),
            "pending": self.pending,
            "ended": self.ended,
            "absent": list(self.absent),
            "ended_by": list(self.ended_by),
            "abandoned": self.abandoned,
            "forfeited": list(self.forfeited),
        }


Seen = Callable[[int, Step, GameState, GameState, tuple[int, ...]], None]
"""Told of every step that checked, with the state before and after it and, for a buy
step, its claims as they rank, the buyer first (`buy_window.buyer_of`): `rommy replay`
narrates from the one pass that verifies."""


def verify_transcript(data: bytes, seen: Seen | None = None) -> VerifyReport:
    """Check a transcript held in memory (see `verify_stream`)."""
    return verify_stream(io.BytesIO(data), seen)


def verify_stream(file: BinaryIO, seen: Seen | None = None) -> VerifyReport:
    """Check a transcript read from `file` one record at a time (memory is bounded by
    the largest record, not the file); `UnreadableTranscript` if it is not one."""
    if file.read(len(MAGIC)) != MAGIC:
        raise UnreadableTranscript(N_("not a p2p-rommy transcript (bad magic line)"))
    reader = FrameReader(file)
    frames = iter(reader)
    first = next(frames, None)
    if first is None:
        problem = reader.damaged or reader.torn
        raise UnreadableTranscript(
            "the transcript has no game config" + (f" ({problem})" if problem else "")
        )
    try:
        config = check_genesis(first).config
    except ProtocolError as error:
        raise UnreadableTranscript(error.reason) from None
    report = VerifyReport(config)
    replica = _Verifier(config)
    roster = replica.roster
    failure: ProtocolError | None = None
    for n, payload in enumerate(frames, start=1):
        if replica.over:
            report.damage = f"records after the game's end (from record {n})"
            break
        try:
            record = decode_record(payload)
        except ProtocolError as error:
            report.damage = f"record {n} is unreadable ({error.reason})"
            break
        before = replica.state
        try:
            step = _check_record(replica, roster, n, record)
        except Damage as damage:
            report.damage = f"record {n}: {damage}"
            break
        except ProtocolError as error:
            failure = (
                error
                if isinstance(error, LateProof)
                else ProtocolError(error.sender, error.reason, n)
            )
            break
        report.steps = n
        if isinstance(step.body, EndStep):
            report.ended_by = tuple(s for s, ack in enumerate(record.acks) if ack)
        if seen is not None:
            claims = replica.last_claims if step.kind == "buy" else ()
            seen(n, step, before, replica.state, claims)
    try:  # the proofs left to an audit that did not come (or came out unclean)
        replica.check_unproven()
    except LateProof as late:  # an earlier step than any other finding: it stops there
        failure, report.damage = late, None
    if failure is not None:
        report.culprit = failure.sender if isinstance(failure.sender, int) else None
        report.step, report.what = failure.step, failure.reason
        if isinstance(failure, LateProof) and failure.step is not None:
            report.steps = failure.step - 1
    if report.damage is None and report.what is None:
        if reader.damaged is not None:
            report.damage = reader.damaged
        elif reader.torn is not None and replica.over:
            report.damage = f"bytes after the game's end ({reader.torn})"
    report.rounds = [_summary(config, round_no, audit) for round_no, audit in replica.audits]
    report.cards = {round_no: dict(audit.cards) for round_no, audit in replica.audits}
    report.scores = replica.state.scores
    report.finished = replica.over
    if replica.ended is not None:
        report.absent, report.ended = replica.ended
    if reader.torn and report.damage is None:
        report.pending.append(f"the transcript ends in {reader.torn} (a crash in mid-write)")
    if report.fair and not replica.over and replica.deck is not None:
        report.pending.append(
            f"the seeds of round {replica.deck.seat.params.round_no + 1} (the round is not over): "
            "its shuffles and shares were checked by their proofs only"
        )
    return report


class _Verifier(Observer):
    """The observer verify replays through: a finished round's proofs are left to the
    round's audit, whose replay from the seeds shows what each proof claims; they are
    verified only where that replay is not clean or never comes (docs/decisions.md)."""

    replay_proofs = True


def _check_record(
    replica: Observer, roster: dict[bytes, tuple[int, bytes]], n: int, record: Record
) -> Step:
    """Check record `n`: `Damage` for what no valid signature stands behind, else the
    replica's `ProtocolError` naming the seat whose signed step or ACK is wrong."""
    try:
        opened = open_envelope(record.step, roster)
        step = decode(opened.body, opened.seat)
    except ProtocolError as error:
        raise Damage(N_("the step: {reason}").format(reason=error.reason)) from None
    if not isinstance(step, Step) or step.game != replica.game:
        raise Damage(N_("it does not hold a step of this game"))
    if step.n != n:
        raise Damage(
            N_("it holds step {n} (records removed, repeated or reordered)").format(n=step.n)
        )
    if len(record.acks) != replica.config.players:
        raise Damage(
            N_("it holds {value} ACKs for {players} seats").format(
                value=len(record.acks), players=replica.config.players
            )
        )
    try:  # the replica opens each ACK; they are looked at again only if something fails
        replica.check_certificate(step, record.acks, step_digest(record.step))
    except ProtocolError:
        _check_acks(replica, roster, n, step, record)  # damage comes before blame
        raise
    replica.commit()
    return step


def _check_acks(
    replica: Observer, roster: dict[bytes, tuple[int, bytes]], n: int, step: Step, record: Record
) -> None:
    """`Damage` if an ACK of record `n` is not a good ACK of this step by its seat."""
    for seat, envelope in enumerate(record.acks):
        if envelope == b"" and isinstance(step.body, EndStep) and seat in step.body.absent:
            continue  # an absent seat's empty slot: any other seat's ACK must be there
        try:
            opened_ack = open_envelope(envelope, roster)
            ack = decode(opened_ack.body, opened_ack.seat)
        except ProtocolError as error:
            raise Damage(
                N_("seat {value}'s ACK: {reason}").format(value=seat + 1, reason=error.reason)
            ) from None
        if not isinstance(ack, Ack) or ack.seat != seat or ack.n != n or ack.game != replica.game:
            raise Damage(
                N_("the ACK in seat {value}'s place is not its ACK of this step").format(
                    value=seat + 1
                )
            )


def _summary(config: GameConfig, round_no: int, audit: AuditReport) -> RoundSummary:
    rules = config.rules
    dealt = rules.hand_size(config.players) * config.players + rules.dealer_extra_cards
    to_seats = sum(1 for recipient in audit.given.values() if recipient != ALL)
    return RoundSummary(
        round_no,
        [config.seats[seat].name for u, seat in audit.shuffles if u == 0],
        dealt,
        max(0, to_seats - dealt),
        len(audit.shown),
    )
