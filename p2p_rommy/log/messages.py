"""Log messages: proposed steps, ACKs and NACKs, buy answers, committed records.

All travel in signed envelopes (protocol/SPEC.md §3.9). A step is signed by its
one proposer and names the state hash it builds on; an ACK is a seat's signature
on the state hash after the step; a committed record is the step's envelope with
every seat's ACK envelope, so anyone can check the commit offline.

A step's body is decoded once, schema-checked, into one of four typed values
(`DeckStep`, `MoveStep`, `BuyStep`, `EndStep`); the layers above dispatch on its type.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Self

from p2p_rommy.engine.moves import Move, ResolveBuy, StartRound
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.log.move_codec import decode_move, encode_move
from p2p_rommy.wire.codec import (
    MAX_BODY_BYTES,
    SchemaError,
    array,
    blob,
    integer,
    kind_of,
    pack,
    text,
    unpack,
)
from p2p_rommy.wire.identity import envelope_body
from p2p_rommy.wire.message import In, Message, Out

_GAME = blob(32)
_N = integer(0, 2**40)
_SEAT = integer(0, 5)
_FLAG = integer(0, 1)
"""A yes or no on the wire: 0 or 1."""
END_REASON_MAX = 200
"""Characters in an end step's reason."""
CHAT_MAX = 200
"""Characters in one chat line."""


def _any(value: Any, name: str) -> Any:
    """A step's body: checked by its own kind's declaration (`decode_body`)."""
    return value


def _move(value: Any, name: str) -> Any:
    """A move's wire form: checked by `decode_move`, which needs the proposer's seat."""
    return value


def _nil_or_blob(value: Any, name: str) -> bytes | None:
    return None if value is None else blob()(value, name)


def _nonce(value: Any, name: str) -> bytes:
    """A buy answer's nonce: empty (under `first`) or 32 bytes."""
    if not isinstance(value, bytes) or len(value) not in (0, 32):
        raise SchemaError(N_("{name} must be 0 or 32 bytes").format(name=name))
    return value


@dataclass(frozen=True, slots=True)
class DeckStep(Message):
    """A deck-protocol message (its own envelope, signed by the same seat)."""

    KIND: ClassVar[str] = "deck"
    envelope: Annotated[bytes, blob()]


@dataclass(frozen=True, slots=True)
class MoveStep(Message):
    """An engine move by the proposer, with the mover's shares for the hidden cards it
    shows (`reveal`, a `deck/shares` envelope) or None."""

    KIND: ClassVar[str] = "move"
    move: Annotated[Move, _move, Out(encode_move)]
    reveal: Annotated[bytes | None, _nil_or_blob]

    @classmethod
    def from_body(cls, body: Any, sender: int | str | None = None) -> Self:
        """The move is decoded for `sender`, the step's proposer: a move for another
        seat, or one only the engine makes, is refused."""
        seat = sender if isinstance(sender, int) else None
        fields = cls.schema().check(body, seat)
        move = decode_move(fields["move"], seat)
        if isinstance(move, StartRound | ResolveBuy) or move.seat != seat:
            raise ProtocolError(seat, N_("a move for another seat, or one nobody proposes"))
        return cls(move, fields["reveal"])


@dataclass(frozen=True, slots=True)
class BuyStep(Message):
    """The resolution of the buy window opened by step `window`: every answering seat's
    signed answer, and under `seat`/`lot` every eligible seat's seal (SPEC §4.7)."""

    KIND: ClassVar[str] = "buy"
    window: Annotated[int, _N]
    answers: Annotated[tuple[bytes, ...], array(blob(max_size=1024), 6)]
    seals: Annotated[tuple[bytes, ...], array(blob(max_size=1024), 6)] = ()


@dataclass(frozen=True, slots=True)
class EndStep(Message):
    """Ending the game without the seats `absent` (sorted, distinct, at least one), which
    never came back or were caught cheating (SPEC §4.4). Fewer than half the table's
    seats (its signers are a majority): the replica checks that bound, which needs the
    config."""

    KIND: ClassVar[str] = "end"
    absent: Annotated[tuple[int, ...], array(_SEAT, 5, 1)]
    reason: Annotated[str, text(END_REASON_MAX)]

    def received(self, sender: int | str | None) -> None:
        if any(a >= b for a, b in zip(self.absent, self.absent[1:], strict=False)):
            raise ProtocolError(
                sender, N_("an end lists the seats it leaves out unsorted or twice")
            )


StepBody = DeckStep | MoveStep | BuyStep | EndStep
_BODY_KINDS: dict[str, type[StepBody]] = {
    body.KIND: body for body in (DeckStep, MoveStep, BuyStep, EndStep)
}
_BODIES = {kind: body.schema() for kind, body in _BODY_KINDS.items()}
"""Each step body's schema: the SPEC field table is read from these (tools/vectors.py)."""


def decode_body(body: Any, sender: int | None) -> StepBody:
    """A step's body as its typed value; `ProtocolError` naming `sender` if malformed."""
    kind = kind_of(body, sender)
    declared = _BODY_KINDS.get(kind)
    if declared is None:
        raise ProtocolError(sender, N_("unknown step kind {kind!r}").format(kind=kind))
    return declared.from_body(body, sender)


class _Signed(Message):
    """A log message names its author's seat, which must be the seat that signed it."""

    __slots__ = ()
    seat: int

    def received(self, sender: int | str | None) -> None:
        _check_signer(self.seat, sender)


def _check_signer(seat: int, sender: int | str | None) -> None:
    if sender is not None and seat != sender:
        raise ProtocolError(sender, N_("a message names another seat than its signer"))


def _step_body_wire(body: StepBody) -> dict[str, Any]:
    return body.wire()


@dataclass(frozen=True, slots=True)
class _AboutStep(_Signed):
    """What a step, an ACK and a NACK start with (SPEC §4.4): the game, the step's
    number and the seat that signs it."""

    game: Annotated[bytes, _GAME]
    n: Annotated[int, _N]
    seat: Annotated[int, _SEAT]


@dataclass(frozen=True, slots=True)
class Step(_AboutStep):
    """Step `n` proposed by `seat` on top of state hash `prev`; `body` says what it does."""

    KIND: ClassVar[str] = "log/step"
    prev: Annotated[bytes, blob(32)]
    body: Annotated[StepBody, _any, Out(_step_body_wire)]

    @property
    def kind(self) -> str:
        """``deck``, ``move``, ``buy`` or ``end``."""
        return self.body.KIND

    @classmethod
    def from_body(cls, body: Any, sender: int | str | None = None) -> Self:
        """The step, its body decoded for its proposer (`decode_body`)."""
        fields = cls.schema().check(body, sender)
        seat = fields["seat"]
        _check_signer(seat, sender)
        return cls(
            fields["game"], fields["n"], seat, fields["prev"], decode_body(fields["body"], seat)
        )


STEP_DIGEST_DOMAIN = b"p2p-rommy/v5/step\x00"


def step_digest(envelope: bytes) -> bytes:
    """What an ACK binds of the step it acknowledges (SPEC §4.4): SHA-256 of the step's
    signed body (its one encoding), so an ACK cannot be held up for another step."""
    return hashlib.sha256(STEP_DIGEST_DOMAIN + envelope_body(envelope)).digest()


@dataclass(frozen=True, slots=True)
class Ack(_AboutStep):
    """`seat` acknowledges step `n` whose digest is `step` (`step_digest`) and says
    the state after it is `state`, as it computed it."""

    KIND: ClassVar[str] = "log/ack"
    step: Annotated[bytes, blob(32)]
    state: Annotated[bytes, blob(32)]


@dataclass(frozen=True, slots=True)
class Nack(_AboutStep):
    KIND: ClassVar[str] = "log/nack"
    reason: Annotated[str, text(500)]


@dataclass(frozen=True, slots=True)
class BuyAnswer(_Signed):
    """A seat's signed answer in a buy window: claim (Køb!) or pass. `window` is the
    step number that opened it. `seen` is the seat's observation under `buy_priority =
    first` (SPEC §4.7): the seats whose calls reached it, in the order they did, its own
    call at the moment it sent it (empty under `seat` and `lot`). `nonce` opens the
    seat's `BuySeal` under `seat` and `lot` (empty under `first`)."""

    KIND: ClassVar[str] = "buy/answer"
    game: Annotated[bytes, _GAME]
    window: Annotated[int, _N]
    seat: Annotated[int, _SEAT]
    claim: Annotated[bool, _FLAG, Out(int), In(bool)]
    seen: Annotated[tuple[int, ...], array(_SEAT, 6)] = ()
    nonce: Annotated[bytes, _nonce] = b""

    def received(self, sender: int | str | None) -> None:
        _Signed.received(self, sender)
        if len(set(self.seen)) != len(self.seen):
            raise ProtocolError(sender, N_("an observation lists a seat twice"))


@dataclass(frozen=True, slots=True)
class BuySeal(_Signed):
    """Under `buy_priority = seat` or `lot`: a seat's answer, sealed (SPEC §4.7). Every
    eligible seat seals before any opens, so nobody answers with a last look."""

    KIND: ClassVar[str] = "buy/seal"
    game: Annotated[bytes, _GAME]
    window: Annotated[int, _N]
    seat: Annotated[int, _SEAT]
    seal: Annotated[bytes, blob(32)]


@dataclass(frozen=True, slots=True)
class Sync(_Signed):
    """`seat` has committed through step `n`. With `ask`, it wants what it lacks: the
    records after `n` (as their original signed envelopes), the messages in flight,
    and a `Sync` without `ask` once they are sent."""

    KIND: ClassVar[str] = "log/sync"
    game: Annotated[bytes, _GAME]
    seat: Annotated[int, _SEAT]
    n: Annotated[int, _N]
    ask: Annotated[bool, _FLAG, Out(int), In(bool)]


@dataclass(frozen=True, slots=True)
class Chat(_Signed):
    """A line of table talk: signed like everything else, but not part of the log."""

    KIND: ClassVar[str] = "chat/say"
    game: Annotated[bytes, _GAME]
    seat: Annotated[int, _SEAT]
    text: Annotated[str, text(CHAT_MAX)]


LogMessage = Step | Ack | Nack | BuyAnswer | BuySeal | Sync | Chat
_KINDS: dict[str, type[LogMessage]] = {
    message.KIND: message for message in (Step, Ack, Nack, Sync, Chat, BuyAnswer, BuySeal)
}
_SCHEMAS = {kind: message.schema() for kind, message in _KINDS.items()}
"""Each kind's schema: the SPEC field table is read from these (tools/vectors.py)."""


def decode(data: bytes, sender: int | None = None) -> LogMessage:
    """Bytes to a log message, or `ProtocolError` naming the sender and what is wrong."""
    return decode_message(data, sender)


def decode_message(data: bytes, sender: int | None = None) -> LogMessage:
    """`decode`'s work: a function of its arguments alone, called through the module
    (`sim/one_process.py` remembers its answers; the messages are frozen values)."""
    body = unpack(data, sender, MAX_BODY_BYTES)
    kind = kind_of(body, sender)
    message = _KINDS.get(kind)
    if message is None:
        raise ProtocolError(sender, N_("unknown log message kind {kind!r}").format(kind=kind))
    return message.from_body(body, sender)


@dataclass(frozen=True, slots=True)
class Record:
    """A committed step: the proposer's envelope and every seat's ACK envelope, by seat.

    A record made by a peer's own commit carries the step and ACKs as they were opened
    and checked when they arrived (`decoded`, `votes`), so nothing opens them again; a
    record read back from disk has them None until a reader checks it."""

    step: bytes
    acks: tuple[bytes, ...]
    decoded: Step | None = field(default=None, compare=False, repr=False)
    """The step, as opened and checked when it arrived (not part of the encoding)."""
    votes: tuple[Ack | None, ...] | None = field(default=None, compare=False, repr=False)
    """Each seat's ACK as opened and checked (None for the seat an end leaves out)."""

    def encode(self) -> bytes:
        return pack([self.step, list(self.acks)])

    def decoded_step(self) -> Step:
        """The step, from `decoded`, or decoded from an envelope this peer checked before
        (a record read back from disk: its signatures were checked when it was written
        and when the transcript was replayed)."""
        if self.decoded is not None:
            return self.decoded
        _, _, body, _ = unpack(self.step, None, MAX_BODY_BYTES + 256)
        step = decode(body)
        assert isinstance(step, Step), "a record holds a step"
        return step


def decode_record(data: bytes) -> Record:
    value = unpack(data, None, MAX_BODY_BYTES * 2)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not isinstance(value[0], bytes)
        or not isinstance(value[1], list)
        or not all(isinstance(a, bytes) for a in value[1])
    ):
        raise ProtocolError(None, N_("a transcript record is [step, [acks]]"))
    return Record(value[0], tuple(value[1]))
