"""The deck protocol's messages: frozen values, their msgpack bodies and schemas.

Bodies are msgpack maps with a ``kind`` (protocol/SPEC.md §3.7). Every message
but a commit carries ``prev``: the hash of the round's deck transcript before it,
so a peer that showed different decks to different peers is caught by the next
message anyone sends.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Annotated, Any, ClassVar

from p2p_rommy.deck import group
from p2p_rommy.deck.proofs import DleqProof, ShuffleProof
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.wire.codec import array, blob, fixed, integer, kind_of, unpack
from p2p_rommy.wire.message import In, Key, Message, Out

MAX_DECK = 256
MAX_SEATS = 6

_ID = blob(32)
_POINT = blob(group.POINT_BYTES)
_SCALAR = blob(group.SCALAR_BYTES)
_POINTS = array(_POINT, MAX_DECK, 1)
_SCALARS = array(_SCALAR, MAX_DECK, 1)
_ROUND = integer(0, 10_000)
_SEAT = integer(0, MAX_SEATS - 1)
_PROOF = fixed(
    _POINTS,
    _POINTS,
    _POINT,
    _POINT,
    _POINT,
    _POINT,
    _POINT,
    _POINT,
    _SCALAR,
    _SCALAR,
    _SCALAR,
    _SCALAR,
    _SCALARS,
    _SCALAR,
)
"""A shuffle proof: `ShuffleProof`'s fields, in its order (SPEC §3.5)."""
_PROOF_FIELDS = tuple(f.name for f in fields(ShuffleProof))
_ITEM = fixed(integer(0, 65535), integer(0, 255), _POINT)
"""A share: position, recipient, point."""
_MAX_ITEMS = 1024
_SHARES_PROOF = fixed(_SCALAR, _SCALAR)
"""A shares proof (SPEC §3.4): its challenge and response."""


def _proof_wire(proof: ShuffleProof) -> list[Any]:
    return [getattr(proof, name) for name in _PROOF_FIELDS]


def _proof(parts: tuple[Any, ...]) -> ShuffleProof:
    return ShuffleProof(*parts)


def _items_wire(items: tuple[ShareItem, ...]) -> list[list[Any]]:
    return [[i.position, i.recipient, i.point] for i in items]


def _items(rows: tuple[tuple[Any, ...], ...]) -> tuple[ShareItem, ...]:
    return tuple(ShareItem(p, r, pt) for p, r, pt in rows)


def _proofs_wire(proofs: tuple[DleqProof, ...]) -> list[list[bytes]]:
    return [[proof.challenge, proof.response] for proof in proofs]


def _proofs(rows: tuple[tuple[bytes, bytes], ...]) -> tuple[DleqProof, ...]:
    return tuple(DleqProof(c, s) for c, s in rows)


@dataclass(frozen=True, slots=True)
class ShareItem:
    """One layer removed from one position, for `recipient` (`ALL` = everyone); the
    message's proofs show it."""

    position: int
    recipient: int
    point: bytes


@dataclass(frozen=True, slots=True)
class _Header(Message):
    """What every deck message starts with (SPEC §3.7): its game, round and sender."""

    game: Annotated[bytes, _ID]
    round_no: Annotated[int, _ROUND, Key("round")]
    seat: Annotated[int, _SEAT]


@dataclass(frozen=True, slots=True)
class Commit(_Header):
    KIND: ClassVar[str] = "deck/commit"
    commitment: Annotated[bytes, blob(32)]
    key: Annotated[bytes, _POINT]


@dataclass(frozen=True, slots=True)
class Shuffle(_Header):
    KIND: ClassVar[str] = "deck/shuffle"
    prev: Annotated[bytes, blob(32)]
    shuffle_pass: Annotated[int, integer(0, 1000), Key("pass")]
    key: Annotated[bytes, _POINT]
    deck: Annotated[tuple[bytes, ...], _POINTS]
    proof: Annotated[ShuffleProof, _PROOF, Out(_proof_wire), In(_proof)]


@dataclass(frozen=True, slots=True)
class Shares(_Header):
    KIND: ClassVar[str] = "deck/shares"
    prev: Annotated[bytes, blob(32)]
    items: Annotated[
        tuple[ShareItem, ...], array(_ITEM, _MAX_ITEMS, 1), Out(_items_wire), In(_items)
    ]
    proofs: Annotated[
        tuple[DleqProof, ...],
        array(_SHARES_PROOF, _MAX_ITEMS, 1),
        Out(_proofs_wire),
        In(_proofs),
    ]
    """One batched proof for each pass the items touch, in ascending pass order."""


@dataclass(frozen=True, slots=True)
class SeedReveal(_Header):
    KIND: ClassVar[str] = "deck/seed"
    prev: Annotated[bytes, blob(32)]
    seed: Annotated[bytes, blob(32)]


DeckMessage = Commit | Shuffle | Shares | SeedReveal
_KINDS: dict[str, type[DeckMessage]] = {m.KIND: m for m in (Commit, Shuffle, Shares, SeedReveal)}
_SCHEMAS = {kind: message.schema() for kind, message in _KINDS.items()}
"""Each kind's schema: the SPEC field table is read from these (tools/vectors.py)."""


def encode(message: DeckMessage) -> bytes:
    return message.encode()


def decode(data: bytes, sender: int | str | None = None) -> DeckMessage:
    """Bytes to a message, or `ProtocolError` naming the sender and what is wrong."""
    return decode_message(data, sender)


def decode_message(data: bytes, sender: int | str | None = None) -> DeckMessage:
    """`decode`'s work: a function of its arguments alone, called through the module
    (`sim/one_process.py` remembers its answers; the messages are frozen values)."""
    body = unpack(data, sender)
    kind = kind_of(body, sender)
    message = _KINDS.get(kind)
    if message is None:
        raise ProtocolError(sender, N_("unknown deck message kind {kind!r}").format(kind=kind))
    return message.from_body(body, sender)
