"""The deck protocol's messages: frozen values, their msgpack bodies and schemas.

Bodies are msgpack maps with a ``kind`` (protocol/SPEC.md §3.7). Every message
but a commit carries ``prev``: the hash of the round's deck transcript before it,
so a peer that showed different decks to different peers is caught by the next
message anyone sends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2p_rommy.deck import group
from p2p_rommy.deck.proofs import DleqProof, ShuffleProof
from p2p_rommy.errors import ProtocolError
from p2p_rommy.wire.codec import (
    Schema,
    array,
    blob,
    fixed,
    integer,
    kind_of,
    pack,
    unpack,
)

MAX_DECK = 256
MAX_SEATS = 6

_ID = blob(32)
_POINT = blob(group.POINT_BYTES)
_SCALAR = blob(group.SCALAR_BYTES)
_POINTS = array(_POINT, MAX_DECK, 1)
_SCALARS = array(_SCALAR, MAX_DECK, 1)
_COMMON = {"game": _ID, "round": integer(0, 10_000), "seat": integer(0, MAX_SEATS - 1)}


@dataclass(frozen=True, slots=True)
class Commit:
    game: bytes
    round_no: int
    seat: int
    commitment: bytes
    key: bytes

    def body(self) -> dict[str, Any]:
        return {
            "kind": "deck/commit",
            "game": self.game,
            "round": self.round_no,
            "seat": self.seat,
            "commitment": self.commitment,
            "key": self.key,
        }


@dataclass(frozen=True, slots=True)
class Shuffle:
    game: bytes
    round_no: int
    seat: int
    prev: bytes
    shuffle_pass: int
    key: bytes
    deck: tuple[bytes, ...]
    proof: ShuffleProof

    def body(self) -> dict[str, Any]:
        q = self.proof
        return {
            "kind": "deck/shuffle",
            "game": self.game,
            "round": self.round_no,
            "seat": self.seat,
            "prev": self.prev,
            "pass": self.shuffle_pass,
            "key": self.key,
            "deck": list(self.deck),
            "proof": [
                list(q.u),
                list(q.b),
                q.a_t,
                list(q.b_t),
                q.c_t,
                q.d_t,
                q.f_t,
                q.e_t,
                q.k_a,
                list(q.k_b),
                q.k_c,
                q.k_d,
                list(q.k_e),
                q.k_s,
            ],
        }


@dataclass(frozen=True, slots=True)
class ShareItem:
    """One layer removed from one position, for `recipient` (`ALL` = everyone)."""

    position: int
    recipient: int
    point: bytes
    proof: DleqProof


@dataclass(frozen=True, slots=True)
class Shares:
    game: bytes
    round_no: int
    seat: int
    prev: bytes
    items: tuple[ShareItem, ...]

    def body(self) -> dict[str, Any]:
        items = [
            [i.position, i.recipient, i.point, i.proof.challenge, i.proof.response]
            for i in self.items
        ]
        return {
            "kind": "deck/shares",
            "game": self.game,
            "round": self.round_no,
            "seat": self.seat,
            "prev": self.prev,
            "items": items,
        }


@dataclass(frozen=True, slots=True)
class SeedReveal:
    game: bytes
    round_no: int
    seat: int
    prev: bytes
    seed: bytes

    def body(self) -> dict[str, Any]:
        return {
            "kind": "deck/seed",
            "game": self.game,
            "round": self.round_no,
            "seat": self.seat,
            "prev": self.prev,
            "seed": self.seed,
        }


DeckMessage = Commit | Shuffle | Shares | SeedReveal

_SCHEMAS = {
    "deck/commit": Schema("deck/commit", {**_COMMON, "commitment": blob(32), "key": _POINT}),
    "deck/shuffle": Schema(
        "deck/shuffle",
        {
            **_COMMON,
            "prev": blob(32),
            "pass": integer(0, 1000),
            "key": _POINT,
            "deck": _POINTS,
            "proof": fixed(
                _POINTS,
                _POINTS,
                _POINT,
                _POINTS,
                _POINT,
                _POINT,
                _POINT,
                _POINT,
                _SCALAR,
                _SCALARS,
                _SCALAR,
                _SCALAR,
                _SCALARS,
                _SCALAR,
            ),
        },
    ),
    "deck/shares": Schema(
        "deck/shares",
        {
            **_COMMON,
            "prev": blob(32),
            "items": array(
                fixed(integer(0, 65535), integer(0, 255), _POINT, _SCALAR, _SCALAR), 1024, 1
            ),
        },
    ),
    "deck/seed": Schema("deck/seed", {**_COMMON, "prev": blob(32), "seed": blob(32)}),
}


def encode(message: DeckMessage) -> bytes:
    return pack(message.body())


def decode(data: bytes, sender: int | str | None = None) -> DeckMessage:
    """Bytes to a message, or `ProtocolError` naming the sender and what is wrong."""
    body = unpack(data, sender)
    kind = kind_of(body, sender)
    schema = _SCHEMAS.get(kind)
    if schema is None:
        raise ProtocolError(sender, f"unknown deck message kind {kind!r}")
    f = schema.check(body, sender)
    common = (f["game"], f["round"], f["seat"])
    if kind == "deck/commit":
        return Commit(*common, f["commitment"], f["key"])
    if kind == "deck/shuffle":
        proof = ShuffleProof(*f["proof"])
        return Shuffle(*common, f["prev"], f["pass"], f["key"], f["deck"], proof)
    if kind == "deck/shares":
        items = tuple(ShareItem(p, r, pt, DleqProof(c, s)) for p, r, pt, c, s in f["items"])
        return Shares(*common, f["prev"], items)
    return SeedReveal(*common, f["prev"], f["seed"])
