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
from dataclasses import dataclass
from typing import Any

from p2p_rommy.engine.moves import Move, ResolveBuy, StartRound
from p2p_rommy.errors import ProtocolError
from p2p_rommy.log.move_codec import decode_move, encode_move
from p2p_rommy.wire.codec import (
    MAX_BODY_BYTES,
    Schema,
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

_GAME = blob(32)
_N = integer(0, 2**40)


def _any(value: Any, name: str) -> Any:
    return value


@dataclass(frozen=True, slots=True)
class DeckStep:
    """A deck-protocol message (its own envelope, signed by the same seat)."""

    envelope: bytes

    def wire(self) -> dict[str, Any]:
        return {"kind": "deck", "envelope": self.envelope}


@dataclass(frozen=True, slots=True)
class MoveStep:
    """An engine move by the proposer, with the mover's shares for the hidden cards it
    shows (`reveal`, a `deck/shares` envelope) or None."""

    move: Move
    reveal: bytes | None

    def wire(self) -> dict[str, Any]:
        return {"kind": "move", "move": encode_move(self.move), "reveal": self.reveal}


@dataclass(frozen=True, slots=True)
class BuyStep:
    """The resolution of the buy window opened by step `window`: every answering seat's
    signed answer, and under `seat`/`lot` every eligible seat's seal (SPEC §4.7)."""

    window: int
    answers: tuple[bytes, ...]
    seals: tuple[bytes, ...] = ()

    def wire(self) -> dict[str, Any]:
        return {
            "kind": "buy",
            "window": self.window,
            "answers": list(self.answers),
            "seals": list(self.seals),
        }


@dataclass(frozen=True, slots=True)
class EndStep:
    """Ending the game without `absent`, which never came back (SPEC §4.4)."""

    absent: int
    reason: str

    def wire(self) -> dict[str, Any]:
        return {"kind": "end", "absent": self.absent, "reason": self.reason}


StepBody = DeckStep | MoveStep | BuyStep | EndStep
_KINDS: dict[type, str] = {DeckStep: "deck", MoveStep: "move", BuyStep: "buy", EndStep: "end"}
END_REASON_MAX = 200
"""Characters in an end step's reason."""


def _nil_or_blob(value: Any, name: str) -> bytes | None:
    return None if value is None else blob()(value, name)


_BODIES = {
    "deck": Schema("deck", {"envelope": blob()}),
    "move": Schema("move", {"move": lambda value, name: value, "reveal": _nil_or_blob}),
    "buy": Schema(
        "buy",
        {
            "window": integer(0, 2**40),
            "answers": array(blob(max_size=1024), 6),
            "seals": array(blob(max_size=1024), 6),
        },
    ),
    "end": Schema("end", {"absent": integer(0, 5), "reason": text(END_REASON_MAX)}),
}


def decode_body(body: Any, sender: int | None) -> StepBody:
    """A step's body as its typed value; `ProtocolError` naming `sender` if malformed."""
    kind = kind_of(body, sender)
    schema = _BODIES.get(kind)
    if schema is None:
        raise ProtocolError(sender, f"unknown step kind {kind!r}")
    f = schema.check(body, sender)
    if kind == "deck":
        return DeckStep(f["envelope"])
    if kind == "move":
        move = decode_move(f["move"], sender)
        if isinstance(move, StartRound | ResolveBuy) or move.seat != sender:
            raise ProtocolError(sender, "a move for another seat, or one nobody proposes")
        return MoveStep(move, f["reveal"])
    if kind == "buy":
        return BuyStep(f["window"], f["answers"], f["seals"])
    return EndStep(f["absent"], f["reason"])


@dataclass(frozen=True, slots=True)
class Step:
    """Step `n` proposed by `seat` on top of state hash `prev`; `body` says what it does."""

    game: bytes
    n: int
    seat: int
    prev: bytes
    body: StepBody

    @property
    def kind(self) -> str:
        """``deck``, ``move``, ``buy`` or ``end``."""
        return _KINDS[type(self.body)]

    def encode(self) -> bytes:
        return pack(
            {
                "kind": "log/step",
                "game": self.game,
                "n": self.n,
                "seat": self.seat,
                "prev": self.prev,
                "body": self.body.wire(),
            }
        )


STEP_DIGEST_DOMAIN = b"p2p-rommy/v5/step\x00"


def step_digest(envelope: bytes) -> bytes:
    """What an ACK binds of the step it acknowledges (SPEC §4.4): SHA-256 of the step's
    signed body (its one encoding), so an ACK cannot be held up for another step."""
    return hashlib.sha256(STEP_DIGEST_DOMAIN + envelope_body(envelope)).digest()


@dataclass(frozen=True, slots=True)
class Ack:
    """`seat` acknowledges step `n` whose digest is `step` (`step_digest`) and says
    the state after it is `state`, as it computed it."""

    game: bytes
    n: int
    seat: int
    step: bytes
    state: bytes

    def encode(self) -> bytes:
        return pack(
            {
                "kind": "log/ack",
                "game": self.game,
                "n": self.n,
                "seat": self.seat,
                "step": self.step,
                "state": self.state,
            }
        )

    @property
    def vote(self) -> bytes:
        """The step and state together: two ACKs agree when their votes are equal."""
        return self.step + self.state


@dataclass(frozen=True, slots=True)
class Nack:
    game: bytes
    n: int
    seat: int
    reason: str

    def encode(self) -> bytes:
        return pack(
            {
                "kind": "log/nack",
                "game": self.game,
                "n": self.n,
                "seat": self.seat,
                "reason": self.reason,
            }
        )


@dataclass(frozen=True, slots=True)
class BuyAnswer:
    """A seat's signed answer in a buy window: claim (Køb!) or pass. `window` is the
    step number that opened it. `seen` is the seat's observation under `buy_priority =
    first` (SPEC §4.7): the seats whose calls reached it, in the order they did, its own
    call at the moment it sent it (empty under `seat` and `lot`). `nonce` opens the
    seat's `BuySeal` under `seat` and `lot` (empty under `first`)."""

    game: bytes
    window: int
    seat: int
    claim: bool
    seen: tuple[int, ...] = ()
    nonce: bytes = b""

    def encode(self) -> bytes:
        return pack(
            {
                "kind": "buy/answer",
                "game": self.game,
                "window": self.window,
                "seat": self.seat,
                "claim": int(self.claim),
                "seen": list(self.seen),
                "nonce": self.nonce,
            }
        )


@dataclass(frozen=True, slots=True)
class BuySeal:
    """Under `buy_priority = seat` or `lot`: a seat's answer, sealed (SPEC §4.7). Every
    eligible seat seals before any opens, so nobody answers with a last look."""

    game: bytes
    window: int
    seat: int
    seal: bytes

    def encode(self) -> bytes:
        return pack(
            {
                "kind": "buy/seal",
                "game": self.game,
                "window": self.window,
                "seat": self.seat,
                "seal": self.seal,
            }
        )


@dataclass(frozen=True, slots=True)
class Sync:
    """`seat` has committed through step `n`. With `ask`, it wants what it lacks: the
    records after `n` (as their original signed envelopes), the messages in flight,
    and a `Sync` without `ask` once they are sent."""

    game: bytes
    seat: int
    n: int
    ask: bool

    def encode(self) -> bytes:
        return pack(
            {
                "kind": "log/sync",
                "game": self.game,
                "seat": self.seat,
                "n": self.n,
                "ask": int(self.ask),
            }
        )


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of table talk: signed like everything else, but not part of the log."""

    game: bytes
    seat: int
    text: str

    def encode(self) -> bytes:
        return pack({"kind": "chat/say", "game": self.game, "seat": self.seat, "text": self.text})


CHAT_MAX = 200
"""Characters in one chat line."""


def _nonce(value: Any, name: str) -> bytes:
    """A buy answer's nonce: empty (under `first`) or 32 bytes."""
    if not isinstance(value, bytes) or len(value) not in (0, 32):
        raise SchemaError(f"{name} must be 0 or 32 bytes")
    return value


LogMessage = Step | Ack | Nack | BuyAnswer | BuySeal | Sync | Chat

_SCHEMAS = {
    "log/step": Schema(
        "log/step", {"game": _GAME, "n": _N, "seat": integer(0, 5), "prev": blob(32), "body": _any}
    ),
    "log/ack": Schema(
        "log/ack",
        {"game": _GAME, "n": _N, "seat": integer(0, 5), "step": blob(32), "state": blob(32)},
    ),
    "log/nack": Schema(
        "log/nack", {"game": _GAME, "n": _N, "seat": integer(0, 5), "reason": text(500)}
    ),
    "log/sync": Schema(
        "log/sync", {"game": _GAME, "seat": integer(0, 5), "n": _N, "ask": integer(0, 1)}
    ),
    "chat/say": Schema("chat/say", {"game": _GAME, "seat": integer(0, 5), "text": text(CHAT_MAX)}),
    "buy/answer": Schema(
        "buy/answer",
        {
            "game": _GAME,
            "window": _N,
            "seat": integer(0, 5),
            "claim": integer(0, 1),
            "seen": array(integer(0, 5), 6),
            "nonce": _nonce,
        },
    ),
    "buy/seal": Schema(
        "buy/seal", {"game": _GAME, "window": _N, "seat": integer(0, 5), "seal": blob(32)}
    ),
}


def decode(data: bytes, sender: int | None = None) -> LogMessage:
    body = unpack(data, sender, MAX_BODY_BYTES)
    kind = kind_of(body, sender)
    schema = _SCHEMAS.get(kind)
    if schema is None:
        raise ProtocolError(sender, f"unknown log message kind {kind!r}")
    f = schema.check(body, sender)
    if f.get("seat") != sender and sender is not None:
        raise ProtocolError(sender, "a message names another seat than its signer")
    if kind == "log/step":
        return Step(f["game"], f["n"], f["seat"], f["prev"], decode_body(f["body"], f["seat"]))
    if kind == "log/ack":
        return Ack(f["game"], f["n"], f["seat"], f["step"], f["state"])
    if kind == "log/nack":
        return Nack(f["game"], f["n"], f["seat"], f["reason"])
    if kind == "chat/say":
        return Chat(f["game"], f["seat"], f["text"])
    if kind == "log/sync":
        return Sync(f["game"], f["seat"], f["n"], bool(f["ask"]))
    if kind == "buy/seal":
        return BuySeal(f["game"], f["window"], f["seat"], f["seal"])
    claim, seen = bool(f["claim"]), f["seen"]
    if len(set(seen)) != len(seen):
        raise ProtocolError(sender, "an observation lists a seat twice")
    return BuyAnswer(f["game"], f["window"], f["seat"], claim, seen, f["nonce"])


@dataclass(frozen=True, slots=True)
class Record:
    """A committed step: the proposer's envelope and every seat's ACK envelope, by seat."""

    step: bytes
    acks: tuple[bytes, ...]

    def encode(self) -> bytes:
        return pack([self.step, list(self.acks)])


def decode_record(data: bytes) -> Record:
    value = unpack(data, None, MAX_BODY_BYTES * 2)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not isinstance(value[0], bytes)
        or not isinstance(value[1], list)
        or not all(isinstance(a, bytes) for a in value[1])
    ):
        raise ProtocolError(None, "a transcript record is [step, [acks]]")
    return Record(value[0], tuple(value[1]))
