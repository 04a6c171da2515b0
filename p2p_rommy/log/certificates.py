"""A committed record checked as a whole: its step and every seat's ACK of it.

Catch-up, a restart and `rommy verify` take steps that others committed: each is
checked like a step in flight (`Replica.validate`), and then every ACK must be its
seat's signature on that very step and on the state hash this replica computed. Which
signature a bad record's fault can be pinned on is decided here (an ACK of another
step names its signer only when it is the step's own proposer).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2p_rommy.config import GameConfig
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.log.messages import (
    Ack,
    EndStep,
    Step,
    step_digest,
)
from p2p_rommy.log.messages import decode as decode_log
from p2p_rommy.log.tentative import Tentative
from p2p_rommy.wire.identity import envelope_head, is_envelope_of, open_envelope


class Certificates:
    """Committed records, checked and replayed (a mixin of `Replica`; see the module
    docstring)."""

    config: GameConfig
    game: bytes
    roster: Any
    tentative: Tentative | None
    _signers: list[tuple[bytes, bytes]]

    def validate(self, step: Step) -> Tentative:
        """Check a step and hold it in flight (`Replica.validate`)."""
        raise NotImplementedError

    def commit(self) -> None:
        """Apply the step in flight (`Replica.commit`)."""
        raise NotImplementedError

    def pending_absent(self) -> tuple[int, ...]:
        """The seats a pending end leaves out (`EndChecks.pending_absent`)."""
        raise NotImplementedError

    def check_certificate(self, step: Step, acks: Sequence[bytes], digest: bytes) -> Tentative:
        """Validate a committed record's step (`digest`: its `step_digest`) and its ACKs:
        every seat's signature on that step and on the state hash this replica computes.
        Raises `ProtocolError`; on success the step is the tentative one, ready to
        `commit`. An ACK of another step names its signer only when it is the step's own
        proposer (it signed both); else nobody: the proposer may have signed two steps,
        or the record was altered, and no one signature proves which."""
        if self.tentative is None or (
            isinstance(step.body, EndStep)
            and (self.tentative.kind != "end" or self.pending_absent() != step.body.absent)
        ):  # an end replaces a pending step the absent seats held up, or an end without fewer
            self.validate(step)
        tentative = self.tentative
        assert tentative is not None
        if tentative.n != step.n or tentative.proposer != step.seat:
            raise ProtocolError(
                step.seat, N_("a record for another step than the one held"), step.n
            )
        if len(acks) != self.config.players:
            raise ProtocolError(
                None, N_("step {n} is committed without every seat's ACK").format(n=step.n), step.n
            )
        absent = step.body.absent if isinstance(step.body, EndStep) else ()
        if not absent and self._acks_as_expected(step, acks, digest, tentative.hash):
            return tentative
        held: dict[int, Ack] = {}
        for seat, envelope in enumerate(acks):
            if seat in absent and envelope == b"":
                continue  # the seat the others ended the game without
            opened = open_envelope(envelope, self.roster)
            ack = decode_log(opened.body, opened.seat)
            if (
                not isinstance(ack, Ack)
                or opened.seat != seat
                or ack.game != self.game
                or ack.n != step.n
            ):  # a signed message in the wrong place: not its signer's doing
                raise ProtocolError(
                    None,
                    N_("record {n}: not seat {value}'s ACK").format(n=step.n, value=seat + 1),
                    step.n,
                )
            held[seat] = ack
        own = held.get(step.seat)
        if own is not None and own.step != digest:
            raise ProtocolError(
                step.seat,
                N_(
                    "record {n}: its own ACK acknowledges another step than the one it "
                    "signed here (two steps for one number)"
                ).format(n=step.n),
                step.n,
            )
        for seat, ack in held.items():
            if ack.step != digest:
                raise ProtocolError(
                    None,
                    N_(
                        "record {n}: seat {value}'s ACK acknowledges another step than "
                        "seat {value2}'s step held here (two steps for one number, or an "
                        "altered record)"
                    ).format(n=step.n, value=seat + 1, value2=step.seat + 1),
                    step.n,
                )
            if ack.state != tentative.hash:
                raise ProtocolError(
                    seat,
                    N_("record {n}: seat {value} ACKed another state").format(
                        n=step.n, value=seat + 1
                    ),
                    step.n,
                )
        return tentative

    def _acks_as_expected(
        self, step: Step, acks: Sequence[bytes], digest: bytes, state: bytes
    ) -> bool:
        """Whether each seat's ACK is exactly the envelope of the ACK it owes (this step,
        the state computed here) under a good signature: then all is well without a body
        decoded. Otherwise `check_certificate` opens them one by one to say what is wrong
        and whose it is (issue #27: a record's ACKs are most of what verify reads)."""
        for seat, (signer, public) in enumerate(self._signers):
            body = Ack(self.game, step.n, seat, digest, state).encode()
            if not is_envelope_of(acks[seat], envelope_head(signer, body), public, body):
                return False
        return True

    def restore(self, step_envelope: bytes, acks: Sequence[bytes]) -> None:
        """Replay one record of this seat's own transcript (signatures and all)."""
        opened = open_envelope(step_envelope, self.roster)
        step = decode_log(opened.body, opened.seat)
        if not isinstance(step, Step):
            raise ProtocolError(opened.seat, N_("a transcript record must hold a step"))
        self.check_certificate(step, acks, step_digest(step_envelope))
        self.commit()
